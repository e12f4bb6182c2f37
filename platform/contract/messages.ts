/*
 * The user-facing messages both sides say (issue 61 item 1): the platform answers them (a call's
 * `detail`, a 4xx, a report's text) and the console shows the same words (a toast, a form error,
 * a page) or checks them. Written once here, in the specs' wording (../shared/spec: spec 1 §8,
 * spec 2 §8, spec 3 §8). Plain constants, no zod: browser code may import this module.
 * app/lib/messages.source.test.ts fails when a sentence stands in two modules.
 */

/** Assigning entities (contacts, IAM users, devices: spec 3 §8). */
export const entityMessages = {
  assigned: "Assigned entity successfully.",
  unassigned: "Unassigned entity successfully.",
  parentAssigned: "Parent entity assigned.",
  parentCleared: "Parent entity cleared.",
  nameRequired: "Entity name is required.",
  /** The 404 of an entity id or name the caller's account does not hold (entities, IAM, availability). */
  notFound: "Entity not found.",
} as const;

/** IAM (spec 1 §5, §8). */
export const iamMessages = {
  removed: "IAM User removed.",
  roleUpdated: "Updated IAM role successfully.",
  invalidUsername: "Invalid format. Username should be an email.",
  selectEntity: "Please select an entity.",
} as const;

/** Contacts (spec 3 §8). */
export const contactMessages = {
  created: "Contact successfully created.",
  updated: "Contact successfully updated.",
  selectEntityAndTypes: "Please select an entity and types.",
} as const;

/** Sign-up, sign-in and passwords (spec 3 §2.9, §8). */
export const authMessages = {
  registered: "Registration successful. You can now log in.",
  resetSent: "An email confirmation has been sent to your registered email address.",
  passwordTooShort: "Password must be at least 8 characters.",
  passwordTooLong: "Password must be at most 128 characters.",
  acceptTerms: "Accept the terms of use and the privacy policy.",
} as const;

/**
 * Form fields every area shares (platform/lib/fields.ts and the console's forms). A required
 * field's message ends with its stop as the specs' validation messages do (spec 1 §5, spec 3 §5).
 */
export const fieldMessages = {
  emailRequired: "Email is required.",
  emailInvalid: "Enter a valid email address.",
  phoneInvalid: "Enter a valid phone number.",
  descriptionRequired: "Description is required.",
  nameRequired: "Name is required.",
  entityRequired: "Entity is required.",
  /** A bad address of a typed list, named (entities' e-mails, Service Reports' recipients). */
  emailNotValid: (item: string) => `Not a valid e-mail address: ${item.slice(0, 60)}`,
  /** A blank required field named by the field builders (requiredName, idField, ipField…): `Node group` → 'Node group is required.' */
  required: (what: string) => `${what} is required.`,
} as const;

/** Account settings (spec 3 §8). */
export const accountMessages = {
  idpUpdated: "SAML metadata URL updated.",
  idpInvalid: "Enter a valid http or https URL.",
} as const;

/** Billing (spec 3 §8). */
export const billingMessages = {
  added: "Billing successfully added!",
  preferredUpdated: "Preferred billing method updated.",
  removed: "Billing method removed.",
  // The card form's and the setup/checkout requests' required billing details.
  streetRequired: "Address 1 is required.",
  cityRequired: "City is required.",
  stateRequired: "State is required.",
  postalCodeRequired: "Postal code is required.",
} as const;

/**
 * A create's (or Add Hosting's) required fields by deployment (spec 1 §5): the platform answers
 * them and the console's forms say them, from the same rules (createAppServiceRequired,
 * createEndpointRequired).
 */
export const deploymentMessages = {
  regionRequired: "Region is required.",
  portRequired: "Port is required.",
  protocolRequired: "Protocol is required.",
  fqdnRequired: "FQDN is required.",
  serviceNodeGroupRequired: "Service node group is required.",
  nodeGroupRequired: "Node group is required.",
  nodeRequired: "Node is required.",
  endpointServiceNameRequired: "Endpoint service name is required.",
  privateLinkServiceIdRequired: "Private link service id is required.",
  privateEndpointIpRequired: "Private endpoint IP is required.",
  remoteVnetResourceIdRequired: "Remote VNET resource id is required.",
  customerUserEmailRequired: "Customer user email is required.",
  allowedPrincipalRequired: "Allowed principal is required.",
  subscriptionIdRequired: "Subscription id is required.",
  realSubnetsRequired: "Real subnets are required.",
  virtualPoolsRequired: "Virtual subnet pools are required when address translation is on.",
  localAsnRequired: "Local ASN is required when BGP is on.",
  peerAsnRequired: "Peer ASN is required when BGP is on.",
  peerIpRequired: "Peer IP is required when BGP is on.",
  nodeGroupNameRequired: "Node group name is required.",
} as const;

/** App Services (spec 2 §8). */
export const appServiceMessages = {
  created: "App Service created.",
  updated: "App Service updated.",
  removed: "App Service removed.",
  groupCreated: "Service Node Group created.",
  selectHosting: "Please select a hosting location.",
  onpremResize: "An onprem App Service cannot be resized.",
  selectEndpoint: "Select an endpoint.",
} as const;

/** Endpoints (spec 2 §8). */
export const endpointMessages = {
  nameRequired: "Endpoint name is required.",
  nodeGroupCreated: "Endpoint Node Group created.",
  visibilityConfigured: "Configured visibility successfully.",
  agentOnly: "Agent details apply to agent endpoints only.",
  onpremResize: "An onprem endpoint cannot be resized.",
} as const;

/** Packet captures and test reports (spec 1 §8 'Upload'). */
export const pcapMessages = {
  tooLarge: "Error: Chosen file is too large to upload.",
  noTestData: "There is no test data.",
  stillAnalyzing: "The capture is still being analyzed. Try again in a moment.",
} as const;

/** Reports' empty parts (the PDF's and the page's: activation test, SLA). */
export const reportMessages = {
  noStep: "No step was measured.",
  noSample: "No sample was taken.",
  noDevices: "The entity has no devices.",
  noOutage: "No outage this month.",
} as const;

/** Monitoring (spec 1 §8). */
export const monitoringMessages = {
  /** The 404 of an outage the device does not have (monitoring, availability). */
  outageNotFound: "Outage not found.",
  /** An outage under way: its "Recovered by" (the page's value; the post-mortem's sentence adds the stop). */
  notRecovered: "Not recovered yet",
} as const;

/** Support tickets (spec 3 §8). */
export const supportMessages = {
  ticketCreated: "Ticket created successfully.",
  replySent: "Reply sent successfully.",
  subjectRequired: "Subject is required.",
  priorityRequired: "Priority is required.",
  categoryRequired: "Category is required.",
  replyRequired: "Reply is required.",
} as const;

/** Webhook addresses (operations). */
export const webhookMessages = {
  scheme: "The webhook address must start with https://.",
} as const;
