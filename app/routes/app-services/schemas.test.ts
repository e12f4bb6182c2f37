import { describe, expect, it } from "vitest";
import { requestFormParser } from "../../lib/form-fields.server.ts";
import { AddHostingSchema as AddHostingForm, CreateAppServiceSchema as CreateAppServiceForm } from "./schemas.server.ts";

// Parsed as validateForm parses a request form (its empty inputs kept as "", numbers and checkboxes coerced).
const CreateAppServiceSchema = requestFormParser(CreateAppServiceForm)!;
const AddHostingSchema = requestFormParser(AddHostingForm)!;

// Issue 27 item 16: without JavaScript a refused form reports every error at once, each under its own words.
const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => (r.error?.issues ?? []).map((i) => `${i.path.join(".")}: ${i.message}`);

describe("Create App Service and Add Hosting: every error at once", () => {
  it("AWS with every field empty names each missing field", () => {
    expect(messages(CreateAppServiceSchema.safeParse({ location: "aws", app_service_name: "" }))).toEqual([
      "app_service_name: Name is required.",
      "region: Region is required.",
      "cloud_endpoint_service_name: Endpoint service name is required.",
      "port: Port is required.",
    ]);
  });

  it("each deployment's own required fields", () => {
    expect(messages(CreateAppServiceSchema.safeParse({ location: "onprem", app_service_name: "x" }))).toEqual([
      "fqdn: FQDN is required.",
      "service_node_group_id: Service node group is required.",
      "proto: Protocol is required.",
      "port: Port is required.",
    ]);
    expect(messages(CreateAppServiceSchema.safeParse({ location: "azure", app_service_name: "x", open_ai_private_link: "on" })).length).toBe(6);
    expect(messages(CreateAppServiceSchema.safeParse({ location: "network", app_service_name: "x", bgp_enabled: "on" })).length).toBe(5);
  });

  it("Add Hosting (AWS): Region first, then the Endpoint Service Name by its own name", () => {
    expect(messages(AddHostingSchema.safeParse({ app_service_id: "as-1", location: "aws" }))).toEqual([
      "region: Region is required.",
      "cloud_endpoint_service_name: Endpoint service name is required.",
    ]);
  });
});

describe("as Conform sends them: absent fields are undefined", () => {
  it("a missing name does not hide the other missing fields", () => {
    expect(messages(CreateAppServiceSchema.safeParse({ location: "aws" })).length).toBe(4);
  });
});
