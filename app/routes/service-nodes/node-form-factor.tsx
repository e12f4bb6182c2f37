import type { SubmissionResult } from "@conform-to/react";
import { useState, type FormEvent, type ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { copyText } from "../../components/clipboard.ts";
import { ConformForm, SelectField, SubmitButton, TextareaField, TextField, useForm } from "../../components/forms.tsx";
import { useConstraint, useHydrated, useIsPending } from "../../components/hooks.ts";
import { showToast } from "../../components/toaster.tsx";
import { hrefWith } from "../../lib/url.ts";
import { defaultHostedVpcCidr, formFactorLabels, type CloudRegion, type CreationChoice, type NodeCloudInit } from "../../../platform/contract/nodes.ts";
import { fileNameOf, formFactorText, type NodeKindInfo, type NodeView } from "./node-kind.ts";
import { COPIED } from "../../lib/messages.ts";

/*
 * The form-factor dialog's body (spec 2 §2 'Form-factor dialog', §4): tabs Download OVA, Hardware
 * Device, AWS AMI, Hosted Node (and Skip for now in the creation flow), each a link to this URL
 * with another `ff=`, so the choice survives a reload and works without JavaScript. Each tab's
 * form posts to the route's action and comes back here (the node's detail then says what is
 * prepared: the OVA's node_url, the VPN file's name). The cloud-init document is the answer of
 * its POST only (its registration token is single use): selectable, downloadable, and with
 * JavaScript copied by a button.
 */

type Result = SubmissionResult<string[]> | null | undefined;

export interface FormFactorProps {
  info: NodeKindInfo;
  node: NodeView;
  choice: CreationChoice;
  /** In the creation flow: Skip for now is offered. */
  creating: boolean;
  regions: CloudRegion[];
  cloudInit: NodeCloudInit | null;
  lastResult: Result;
}

const tabLabel = (c: CreationChoice) => (c === "skip" ? "Skip for now" : formFactorLabels[c]);

/** The node's form factor as step 2 says it: "skipped" only once Skip for now is the choice (issue 63 item 19). */
const currentFormFactor = (node: NodeView, choice: CreationChoice) => (node.form_factor || choice === "skip" ? formFactorText(node.form_factor) : NOT_CHOSEN);
export const NOT_CHOSEN = "Not chosen yet";

export function FormFactorPanel(props: FormFactorProps) {
  const { node, choice, creating } = props;
  const location = useLocation();
  const choices: CreationChoice[] = creating ? ["ova", "hw", "ami", "hosted_aws", "skip"] : ["ova", "hw", "ami", "hosted_aws"];
  return (
    <div className="space-y-3">
      <p className="text-sm">
        Node <strong>{node.name}</strong>: form factor now <strong>{currentFormFactor(node, choice)}</strong>.
      </p>
      <nav aria-label="Form factor">
        <div className="tabs tabs-box flex-wrap [&_.tab]:text-base-content">
          {choices.map((c) => (
            <Link key={c} to={hrefWith(location, { ff: c })} className={`tab ${c === choice ? "tab-active" : ""}`} aria-current={c === choice ? "page" : undefined} preventScrollReset replace>
              {tabLabel(c)}
            </Link>
          ))}
        </div>
      </nav>
      <section aria-label={tabLabel(choice)}>
        {choice === "ova" ? <OvaTab {...props} /> : null}
        {choice === "hw" ? <HardwareTab {...props} /> : null}
        {choice === "ami" ? <AmiTab {...props} /> : null}
        {choice === "hosted_aws" ? <HostedTab {...props} /> : null}
        {choice === "skip" ? <p>The node stays without a form factor; choose one later with Manage Form Factor in its row menu.</p> : null}
      </section>
    </div>
  );
}

function NodeForm({
  id,
  intent,
  node,
  formFactor,
  lastResult,
  children,
  defaults = {},
  onInput,
}: {
  id: string;
  intent: string;
  node: NodeView;
  /** The form factor the form's call sets (hw, hosted_aws), posted with the node: the call's request. */
  formFactor?: string;
  lastResult: Result;
  children: (fields: ReturnType<typeof useForm>[1]) => ReactNode;
  defaults?: Record<string, string>;
  onInput?: (e: FormEvent<HTMLFormElement>) => void;
}) {
  const [form, fields] = useForm({ id: `${id}-${node.id}`, lastResult, constraint: useConstraint(intent), defaultValue: defaults });
  return (
    <ConformForm form={form} intent={intent} className="space-y-2" onInput={onInput}>
      <input type="hidden" name="node_id" value={node.id} />
      {formFactor ? <input type="hidden" name="form_factor" value={formFactor} /> : null}
      {children(fields)}
    </ConformForm>
  );
}

function OvaTab({ info, node, lastResult }: FormFactorProps) {
  const pending = useIsPending({ intent: "ova" });
  const ready = node.ova_prepared && node.node_url;
  return (
    <NodeForm id="ova" intent="ova" node={node} lastResult={lastResult}>
      {() => (
        <>
          <p>A virtual appliance (OVA) for VMware or VirtualBox, carrying the node's id and a registration token valid for 24 hours.</p>
          {ready ? (
            <p>
              <a className="btn btn-primary btn-sm" href={`${info.path}/files/ova/${encodeURIComponent(fileNameOf(node.node_url!))}`} download>
                Download OVA
              </a>
            </p>
          ) : (
            <p className="text-base-content/70 text-sm">The OVA must be prepared before it can be downloaded.</p>
          )}
          <SubmitButton pending={pending} className={ready ? "btn btn-outline btn-sm" : "btn btn-primary btn-sm"}>
            {ready ? "Prepare a new OVA" : "Prepare OVA"}
          </SubmitButton>
        </>
      )}
    </NodeForm>
  );
}

function HardwareTab({ node, lastResult }: FormFactorProps) {
  const pending = useIsPending({ intent: "hw" });
  const hydrated = useHydrated();
  const [address, setAddress] = useState(node.shipping_addr);
  const onInput = (e: FormEvent<HTMLFormElement>) => {
    const t = e.target as HTMLTextAreaElement;
    if (t.name === "shipping_addr") setAddress(t.value);
  };
  return (
    <NodeForm id="hw" intent="hw" node={node} formFactor="hw" lastResult={lastResult} defaults={{ shipping_addr: node.shipping_addr }} onInput={onInput}>
      {(fields) => (
        <>
          <p>A hardware device, shipped to the address below.</p>
          <TextareaField field={fields.shipping_addr!} label="Shipping Address" rows={3} />
          {/* Save stays disabled while the address is empty (spec 2 §4); without JavaScript the server says so. */}
          <SubmitButton pending={pending} disabled={hydrated && address.trim() === ""} className="btn btn-primary btn-sm">
            Save
          </SubmitButton>
        </>
      )}
    </NodeForm>
  );
}

async function copy(text: string) {
  try {
    await copyText(text);
    showToast({ type: "success", message: COPIED });
  } catch {
    showToast({ type: "error", message: "Could not copy text to clipboard" });
  }
}

function AmiTab({ node, cloudInit, lastResult }: FormFactorProps) {
  const pending = useIsPending({ intent: "ami" });
  const hydrated = useHydrated();
  const text = cloudInit?.cloud_init_data ?? null;
  return (
    <NodeForm id="ami" intent="ami" node={node} lastResult={lastResult}>
      {() => (
        <>
          <p>Launch the node's AWS AMI with this cloud-init data as its user data. Its registration token works once, within 24 hours.</p>
          {text ? (
            <div className="space-y-2">
              <label className="fieldset-legend" htmlFor={`cloud-init-${node.id}`}>
                Cloud-init data
              </label>
              <textarea id={`cloud-init-${node.id}`} readOnly value={text} rows={10} className="textarea w-full font-mono text-xs" />
              <div className="flex flex-wrap gap-2">
                {hydrated ? (
                  <button type="button" className="btn btn-sm" onClick={() => void copy(text)}>
                    Copy
                  </button>
                ) : null}
                <a className="btn btn-outline btn-sm" href={`data:text/yaml;charset=utf-8,${encodeURIComponent(text)}`} download={cloudInit!.file_name}>
                  Download cloud-init data
                </a>
              </div>
            </div>
          ) : null}
          <SubmitButton pending={pending} className={text ? "btn btn-outline btn-sm" : "btn btn-primary btn-sm"}>
            {text ? "Generate again" : "Generate cloud-init data"}
          </SubmitButton>
        </>
      )}
    </NodeForm>
  );
}

function HostedTab({ info, node, regions, lastResult }: FormFactorProps) {
  const pending = useIsPending({ intent: "hosted" });
  const hosted = node.form_factor === "hosted_aws";
  const defaults = {
    hosted_region: hosted ? node.hosted_region : (regions[0]?.region ?? ""),
    hosted_vpc_cidr: hosted && node.hosted_vpc_cidr ? node.hosted_vpc_cidr : defaultHostedVpcCidr,
    hosted_peer_ip: hosted ? node.hosted_peer_ip : "",
    hosted_peer_prefix: hosted && node.hosted_peer_prefix !== null ? String(node.hosted_peer_prefix) : "",
  };
  return (
    <NodeForm id="hosted" intent="hosted" node={node} formFactor="hosted_aws" lastResult={lastResult} defaults={defaults}>
      {(fields) => (
        <>
          <p>A node run by the provider in AWS, joined to your VPC by a WireGuard tunnel.</p>
          <SelectField field={fields.hosted_region!} label="Region" options={regions.map((r) => ({ value: r.region, label: `${r.name} (${r.region})` }))} placeholder={null} />
          <TextField field={fields.hosted_vpc_cidr!} label="VPC CIDR" hint={`e.g. ${defaultHostedVpcCidr}`} autoComplete="off" />
          <div className="grid gap-x-4 sm:grid-cols-2">
            <TextField field={fields.hosted_peer_ip!} label="Peer IP" hint="An IPv4 address, e.g. 10.100.0.10" autoComplete="off" />
            <TextField field={fields.hosted_peer_prefix!} label="Peer Prefix" hint="1 to 32, e.g. 24" autoComplete="off" />
          </div>
          <div className="flex flex-wrap gap-2">
            <SubmitButton pending={pending} className="btn btn-primary btn-sm">
              Save and generate VPN configuration
            </SubmitButton>
            {node.vpn_config_file ? (
              <a className="btn btn-outline btn-sm" href={`${info.path}/files/vpn/${encodeURIComponent(node.vpn_config_file)}`} download>
                Download VPN configuration
              </a>
            ) : null}
          </div>
        </>
      )}
    </NodeForm>
  );
}
