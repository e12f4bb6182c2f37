import { beforeAll, describe, expect, it } from "vitest";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";

/*
 * Issue 27 item 14: Create Endpoint refuses a node that does not exist (epn-nonexistent was
 * accepted and the endpoint created), a node of another node group, and a region not in the list.
 */

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const post = (a: TestAccount, call: string, body: unknown) => p.call("POST", call, { token: a.token, body });

async function setup() {
  const a = await p.newAccount();
  const as = await post(a, "create-app-service", { app_service_name: "Node svc", location: "aws", region: "us-east-1", cloud_endpoint_service_name: "com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f60718", port: 443 });
  expect(as.status, JSON.stringify(as.body)).toBe(200);
  const n1 = await post(a, "create-endpoint-node", { ep_node_name: "Office 1", new_ep_node_group: true, ep_node_group_name: "Office" });
  const n2 = await post(a, "create-endpoint-node", { ep_node_name: "Branch 1", new_ep_node_group: true, ep_node_group_name: "Branch" });
  expect(n1.status, JSON.stringify(n1.body)).toBe(200);
  return { a, as: as.body.app_service_id as string, office: n1.body as { ep_node_id: string; ep_node_group_id: string }, branch: n2.body as { ep_node_id: string; ep_node_group_id: string } };
}

describe("#27 item 14: Create Endpoint checks the node and the region", () => {
  it("refuses a node that does not exist, and creates nothing", async () => {
    const { a, as, office } = await setup();
    const r = await post(a, "create-endpoint", { ep_name: "Ghost", app_service_id: as, deployment: "onprem", ep_node_group_id: office.ep_node_group_id, ep_node_id: "epn-nonexistent" });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body.detail)).toContain("ep_node_id");
    expect((await p.call("GET", "list-endpoint", { token: a.token })).body).toEqual([]);
  });

  it("refuses a node of another node group; accepts the group's own node", async () => {
    const { a, as, office, branch } = await setup();
    const wrong = await post(a, "create-endpoint", { ep_name: "Mixed", app_service_id: as, deployment: "onprem", ep_node_group_id: office.ep_node_group_id, ep_node_id: branch.ep_node_id });
    expect(wrong.status).toBe(422);
    const ok = await post(a, "create-endpoint", { ep_name: "Office", app_service_id: as, deployment: "onprem", ep_node_group_id: office.ep_node_group_id, ep_node_id: office.ep_node_id });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it("refuses another account's node", async () => {
    const { a, as, office } = await setup();
    const other = await setup();
    const r = await post(a, "create-endpoint", { ep_name: "Theirs", app_service_id: as, deployment: "onprem", ep_node_group_id: office.ep_node_group_id, ep_node_id: other.office.ep_node_id });
    expect(r.status).toBe(422);
  });

  it("refuses a region that is not in the location's list", async () => {
    const { a, as } = await setup();
    const r = await post(a, "create-endpoint", { ep_name: "Moon", app_service_id: as, deployment: "aws", region: "moon-1", consumer_principle: "arn:aws:iam::123456789012:root" });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body.detail)).toContain("list-aws-regions");
  });
});
