import { deploymentMessages, fieldMessages } from "../../platform/contract/messages.ts";
/*
 * The console's own messages that several of its modules say (issue 61 item 1): the words the
 * platform says too are in platform/contract/messages.ts, a screen's own in its model. Plain
 * constants: browser code imports them. app/lib/messages.source.test.ts keeps each in one module.
 */

/** Spec 1 §8's words for a failed fetch. */
export const FETCH_FAILED = "An error occurred while fetching data.";
/** The platform did not answer (503 or no connection): the page retries by itself. */
export const UNAVAILABLE = "The service is unavailable right now. This page will retry by itself.";
/** A request of a signed-out browser (a stream, an upload). */
export const SESSION_ENDED = "Your session has ended.";
export const COPIED = "Copied to clipboard!";
/** The post-mortem analysis (main dashboard) failed without a detail of its own. */
export const ANALYSIS_FAILED = "The analysis could not be loaded.";

/** Form errors said by several screens' forms. */
export const formMessages = {
  enterEmail: "Enter your email.",
  nameRequired: fieldMessages.nameRequired,
  nodeGroupNameRequired: deploymentMessages.nodeGroupNameRequired,
  /** Hidden id fields (a broken page, not the user's typing). */
  deviceIdMissing: "The device id is missing.",
  nodeGroupMissing: "The node group is missing.",
  nodeMissing: "The node is missing.",
} as const;

/** A dialog opened on an object removed meanwhile. */
export const goneMessages = {
  device: "This device no longer exists.",
  nodeGroup: "This node group no longer exists.",
  node: "This node no longer exists.",
} as const;
