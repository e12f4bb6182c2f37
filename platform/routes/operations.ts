import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { opsDeliverySortable, opsMessages } from "../contract/operations.ts";
import { AccountOps, AccountOpsSaved, DeliveryIdBody, OpsDelivery, OpsDeliveryPage, OpsEventQueued, SetAccountOpsBody } from "../contract/operations.shapes.ts";
import { accountOps, deliveryList, enableWebhook, redeliver, rotateSecret, sendTestEvent, setAccountOps } from "../domain/operations.ts";
import { answerChange, answerDetail, answerQuery, caller } from "../lib/context.ts";
import { maskedSecret } from "../webhooks/signing.ts";
import { EmptyBody } from "../lib/fields.ts";
import { idsFilter, listQuery } from "../lib/list.ts";
import { defineCall, defineChange, defineListCalls } from "../lib/openapi.ts";

/*
 * Operations (spec 2 §7 Operations: get-account-ops, set-account-ops) and the calls the issue adds
 * around them: the secret's rotation, the delivery log, a test event, redelivery and re-enabling.
 * Deliveries follow Standard Webhooks (docs/operations-events.md).
 */

const tags = ["Operations"];

export const getRoute = defineCall({
  method: "get",
  path: "/get-account-ops",
  tags,
  summary: "The account's operations settings",
  description: "A list of at most one item (the spec uses the first). The signing secret is masked.",
  response: z.array(AccountOps),
});

export const setRoute = defineChange({
  path: "/set-account-ops",
  tags,
  summary: "Save the webhook address and e-mail; answers the signing secret",
  description:
    "The address is refused (422, beside webhook_url) when it is not https, carries user:password, or resolves to a loopback, private, link-local or reserved address. The secret is made on the first save and kept after: the first save answers it whole (signature_key_new true), a later save masked.",
  body: SetAccountOpsBody,
  response: AccountOpsSaved,
  errors: [],
});

export const rotateRoute = defineChange({
  path: "/rotate-account-ops-secret",
  tags,
  summary: "A new signing secret, answered whole this once; the previous one also signs for 24 hours",
  body: EmptyBody,
  response: AccountOpsSaved,
  errors: [409],
});

export const listRoute = defineListCalls({
  tags,
  item: OpsDelivery,
  page: OpsDeliveryPage,
  list: {
    path: "/list-account-ops-deliveries",
    summary: "The delivery log",
    rows: ["delivery (the last 100)", "newest first"],
    query: z.object({ ...listQuery(opsDeliverySortable), ids: idsFilter }),
  },
}).list;

export const testRoute = defineChange({ path: "/send-account-ops-test-event", tags, summary: "Send a webhook.test event to the webhook address", body: EmptyBody, response: OpsEventQueued, errors: [409] });

export const redeliverRoute = defineChange({ path: "/redeliver-account-ops-delivery", tags, summary: "Attempt a failed delivery again now", body: DeliveryIdBody, errors: [404, 409] });
export const enableRoute = defineChange({ path: "/enable-account-ops-webhook", tags, summary: "Start deliveries again after the endpoint was disabled", body: EmptyBody, errors: [409] });

export function registerOperationsCalls(app: PlatformApp) {
  app.openapi(getRoute, answerQuery(getRoute, (deps, who) => accountOps(deps.db, who.accountId)));
  app.openapi(
    setRoute,
    answerChange(
      setRoute,
      (deps, who, b) => setAccountOps(deps, who.accountId, b),
      // The whole secret once, in the answer of the save that made it (issue 63 item 9).
      ({ key, created }) => ({ detail: opsMessages.updated, signature_key: created ? key : maskedSecret(key), signature_key_new: created }),
    ),
  );
  app.openapi(
    rotateRoute,
    answerChange(rotateRoute, (deps, who) => rotateSecret(deps.db, who.accountId), (key) => ({ detail: opsMessages.rotated, signature_key: key, signature_key_new: true })),
  );
  app.openapi(listRoute, async (c) => deliveryList.answer(c, caller(c).accountId, c.req.valid("query")));
  app.openapi(
    testRoute,
    answerChange(testRoute, (deps, who) => sendTestEvent(deps.db, who.accountId), (id) => ({ event_id: id, detail: opsMessages.testSent })),
  );
  app.openapi(redeliverRoute, answerDetail(redeliverRoute, (deps, who, b) => redeliver(deps.db, who.accountId, b.delivery_id), opsMessages.redelivered));
  app.openapi(enableRoute, answerDetail(enableRoute, (deps, who) => enableWebhook(deps.db, who.accountId), opsMessages.enabled));
}
