/* The Manage Service Node Groups screen's shapes and words (spec 2 §2, §3 Service node group, §4, §5, §8). */
export type { ServiceNodeGroupRow, ServiceNodeGroupDetail, NodeCertificate } from "../../../platform/contract/nodes.ts";
export { certificateWarningDays, nodeLimits, nodeMessages } from "../../../platform/contract/nodes.ts";

export const EMPTY = "No Service Node Groups found.";
export const DISABLE_PHRASE = "confirm";
