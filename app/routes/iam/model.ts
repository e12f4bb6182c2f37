/* The IAM screen's constants (spec 1 §5, §8): shared by the dialogs and the server schemas. */

export type { IamUser } from "../../../platform/contract/iam.ts";
export { iamRoles } from "../../../platform/contract/iam.ts";

export const INVALID_USERNAME = "Invalid format. Username should be an email.";
export const SELECT_ENTITY = "Please select an entity.";
/** The word Delete IAM User asks for. */
export const REMOVE_PHRASE = "confirm";
