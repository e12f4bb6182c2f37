import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { nodeMessages } from "../contract/nodes.ts";
import { NodeCloudInit, NodeHealth, NodeMetricsSample, NodeOva, NodeRegistered, NodeVpnConfig } from "../contract/nodes.shapes.ts";
import { generateCloudInit, generateVpnConfig, nodeFile, prepareOva, registerNode } from "../domain/node-files.ts";
import { findNode, setFormFactor, type NodeKind } from "../domain/nodes-common.ts";
import { nodeHealth, nodeMetricsOf } from "../domain/nodes-fleet.ts";
import { MAX_SPAN } from "../fleet/index.ts";
import { fleetOf } from "../fleet/runtime.ts";
import { forgetCachedReads } from "../lib/auth.ts";
import { answerDetail, answerQuery, caller, requireWriter, type Ctx, type PlatformDeps } from "../lib/context.ts";
import type { NodeOva as NodeOvaAnswer } from "../contract/nodes.ts";
import { body, checkTimeRange, expects, idField, maxMessage, timeParam } from "../lib/fields.ts";
import { defineCall } from "../lib/openapi.ts";
import { formFactorBody, VpnBody } from "../contract/nodes-forms.shapes.ts";

/*
 * What both node kinds share (spec 2 §4 form-factor dialog; §7; issue #28): setting the form
 * factor, the files it produces (OVA, cloud-init, WireGuard) and their downloads, the node's own
 * registration with its token, Test Node Health and the Monitoring tab's metrics.
 */

const tags = ["Nodes"];
const nodeId = () => idField("Node id", "epn-3b7n1m5q9w2e");

const fileNameParam = z.object({
  file_name: z
    .string({ error: expects("a valid string") })
    .min(1)
    .max(200, maxMessage(200))
    .regex(/^[A-Za-z0-9._-]+$/, "Not a file name of this platform")
    .openapi({ param: { name: "file_name", in: "path" } }),
});

const MetricsQuery = z
  .object({ id: nodeId(), start_time: timeParam("start_time"), end_time: timeParam("end_time") })
  .superRefine((v, ctx) => checkTimeRange(ctx, { start: v.start_time, end: v.end_time }, { maxDays: MAX_SPAN / 86_400_000 }));

const setFormFactorCall = <const P extends `/${string}`>(path: P, what: string, name: string) =>
  defineCall({
    method: "post",
    path,
    tags,
    summary: `Set ${what}'s form factor`,
    description: "ova, ami, hw (shipping_addr) or hosted_aws (hosted_*). The first form factor starts registration: the node registers a short while after (fleet clock). Answers 'Form Factor saved.'.",
    only: "writer",
    body: formFactorBody(name),
    response: z.object({ detail: z.string() }),
    errors: [404],
  });

const prepareCall = <const P extends `/${string}`, I extends "ep_node_id" | "service_node_id">(path: P, idName: I, what: string) =>
  defineCall({
    method: "get",
    path,
    tags,
    summary: `Prepare ${what}'s OVA`,
    description:
      "Builds the OVA (OVF descriptor naming the node with its id, the platform's address and a new single-use registration token valid 24 h; manifest; disk) and sets the form factor to ova. Download it from node_url. Answers 'OVA prepared.'.",
    only: "writer",
    query: z.object({ [idName]: nodeId() } as Record<I, ReturnType<typeof nodeId>>),
    response: NodeOva,
    errors: [404],
  });

const downloadCall = <const P extends `/${string}`>(path: P, summary: string, media: "application/octet-stream" | "text/plain") =>
  defineCall({
    method: "get",
    path,
    tags,
    summary,
    description:
      "To the account that made it only (another's or an unknown name: 404), as an attachment. Writers only (403 to readonly users): an OVA carries a live registration token and a WireGuard file the node's private key.",
    only: "writer",
    params: fileNameParam,
    response: z.string().openapi({ format: "binary" }),
    media,
    responseDescription: "The file",
    errors: [404],
  });

export const calls = {
  setEndpoint: setFormFactorCall("/set-endpoint-node-form-factor", "an endpoint node", "SetEndpointNodeFormFactor"),
  setService: setFormFactorCall("/set-service-node-form-factor", "a service node", "SetServiceNodeFormFactor"),
  prepareEpn: prepareCall("/prepare-epn-ova", "ep_node_id", "an endpoint node"),
  prepareSn: prepareCall("/prepare-sn-ova", "service_node_id", "a service node"),
  cloudInit: defineCall({
    method: "post",
    path: "/generate-node-cloud-init-data",
    tags,
    summary: "Cloud-init user data for an AWS AMI",
    description:
      "A #cloud-config document: write_files puts the node id and a new single-use registration token (valid 24 h) into a mode-0600 file; runcmd enables the node agent. Sets the form factor to ami. The token is not kept in clear: generate again for a new one.",
    only: "writer",
    body: body({ node_id: nodeId() }).strict().openapi("NodeId"),
    response: NodeCloudInit,
    errors: [404],
  }),
  vpn: defineCall({
    method: "post",
    path: "/generate-hsn-vpn-config",
    tags,
    summary: "A hosted node's WireGuard configuration",
    description:
      "A fresh X25519 key pair: the private key only in the file (stored encrypted, never answered otherwise), the PoP of the region as the peer, AllowedIPs the VPC CIDR. Sets the form factor to hosted_aws. Fetch the file from download-hsn-vpn-config/{file_name}.",
    only: "writer",
    body: VpnBody,
    response: NodeVpnConfig,
    errors: [404],
  }),
  downloadVpn: downloadCall("/download-hsn-vpn-config/{file_name}", "Download a hosted node's WireGuard configuration", "text/plain"),
  downloadOva: downloadCall("/download-node-ova/{file_name}", "Download a node's OVA", "application/octet-stream"),
  register: defineCall({
    method: "post",
    path: "/register-node",
    tags,
    summary: "A node registers itself with its registration token",
    description: "Called by the node (from its OVA properties or cloud-init file), not the console. The token works once and for 24 h; otherwise 401.",
    public: true,
    body: body({ node_id: nodeId(), registration_token: idField("Registration token").openapi({ format: "password" }) })
      .strict()
      .openapi("RegisterNode"),
    response: NodeRegistered,
    errors: [401],
  }),
  health: defineCall({
    method: "post",
    path: "/run-health-check",
    tags,
    summary: "Test Node Health",
    description: "Reachability, the tunnel to the PoP, CPU, memory, disk and software version, each pass, warn or fail with a detail; the worst as status. Readonly users may run it: it changes nothing.",
    reads: true,
    body: body({ node_id: nodeId() }).strict().openapi("RunHealthCheck"),
    response: NodeHealth,
    errors: [404],
  }),
  metrics: defineCall({
    method: "get",
    path: "/get-node-metrics",
    tags,
    summary: "A node's metrics over a time range",
    description: "60–170 buckets (docs/fleet.md): tx.bytes and rx.bytes (bytes per second), cpu_p, mem.usage and disk (percent), cpu.fan.rpm, ambient and cpu (°C); zero before the node registered and while it is down.",
    query: MetricsQuery,
    response: z.array(NodeMetricsSample),
    errors: [404],
  }),
};

/** An attachment: its name says what it is. */
function attachment(c: Ctx, data: Buffer, fileName: string, type: string) {
  return c.body(new Uint8Array(data), 200, {
    "content-type": type,
    "content-disposition": `attachment; filename="${fileName}"`,
    "content-length": String(data.length),
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
  });
}

const setFormFactorOf = (kind: NodeKind) => async (deps: Parameters<Parameters<typeof answerDetail>[1]>[0], accountId: string, b: z.output<ReturnType<typeof formFactorBody>>) => {
  const node = await findNode(deps.db, accountId, b.node_id, kind);
  await setFormFactor(deps.db, fleetOf(deps), accountId, node, b);
};

export function registerNodeFileCalls(app: PlatformApp) {
  app.openapi(calls.setEndpoint, answerDetail(calls.setEndpoint, (deps, who, b) => setFormFactorOf("endpoint_node")(deps, who.accountId, b), nodeMessages.formFactorSaved));
  app.openapi(calls.setService, answerDetail(calls.setService, (deps, who, b) => setFormFactorOf("service_node")(deps, who.accountId, b), nodeMessages.formFactorSaved));
  // The spec makes preparing a GET; it changes the node, so no cached read may outlive it.
  const prepared = async (deps: PlatformDeps, accountId: string, answer: NodeOvaAnswer) => {
    await forgetCachedReads(deps, [accountId]);
    return answer;
  };
  app.openapi(calls.prepareEpn, async (c) => {
    const deps = c.get("deps");
    const accountId = requireWriter(c).accountId;
    return c.json(await prepared(deps, accountId, await prepareOva(deps, accountId, c.req.valid("query").ep_node_id, "endpoint_node")), 200);
  });
  app.openapi(calls.prepareSn, async (c) => {
    const deps = c.get("deps");
    const accountId = requireWriter(c).accountId;
    return c.json(await prepared(deps, accountId, await prepareOva(deps, accountId, c.req.valid("query").service_node_id, "service_node")), 200);
  });
  app.openapi(calls.cloudInit, async (c) => c.json(await generateCloudInit(c.get("deps"), requireWriter(c).accountId, c.req.valid("json").node_id), 200));
  app.openapi(calls.vpn, async (c) => c.json(await generateVpnConfig(c.get("deps"), requireWriter(c).accountId, c.req.valid("json")), 200));
  app.openapi(calls.downloadVpn, async (c) => {
    const name = c.req.valid("param").file_name;
    return attachment(c, await nodeFile(c.get("deps"), requireWriter(c).accountId, name, "vpn"), name, "text/plain; charset=utf-8");
  });
  app.openapi(calls.downloadOva, async (c) => {
    const name = c.req.valid("param").file_name;
    return attachment(c, await nodeFile(c.get("deps"), requireWriter(c).accountId, name, "ova"), name, "application/octet-stream");
  });
  app.openapi(calls.register, async (c) => {
    const b = c.req.valid("json");
    return c.json(await registerNode(c.get("deps"), b.node_id, b.registration_token), 200);
  });
  // A measurement: readonly users may run it.
  app.openapi(calls.health, async (c) => c.json(await nodeHealth(c.get("deps").db, fleetOf(c.get("deps")), caller(c).accountId, c.req.valid("json").node_id), 200));
  app.openapi(
    calls.metrics,
    answerQuery(calls.metrics, (deps, who, q) => nodeMetricsOf(deps.db, fleetOf(deps), who.accountId, q.id, q.start_time, q.end_time)),
  );
}
