/* The IAM screen's constants (spec 1 §5, §8): shared by the dialogs and the server schemas. */
import { iamMessages } from "../../../platform/contract/messages.ts";

export type { IamUser } from "../../../platform/contract/iam.ts";
export { iamRoles } from "../../../platform/contract/iam.ts";

export const INVALID_USERNAME = iamMessages.invalidUsername;
export const SELECT_ENTITY = iamMessages.selectEntity;
/** A dialog opened on an IAM user removed meanwhile. */
export const IAM_USER_GONE = "This IAM user no longer exists.";
/** The word Delete IAM User asks for. */
export const REMOVE_PHRASE = "confirm";
