import type { SubmissionResult } from "@conform-to/react";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { ConformForm, SubmitButton, TextField, useForm } from "../../components/forms.tsx";
import { useConstraint, useIsPending } from "../../components/hooks.ts";
import { AddressToggleDialog } from "../endpoint-node-groups/address-toggle.tsx";
import { goneText } from "../service-nodes/node-dialogs.tsx";
import { LAN, type EndpointNodeDetail } from "./model.ts";

/* This screen's own dialogs: Add Secondary IPs (spec 2 §2, §5: comma separated), Configure LAN Interface (§4: an address toggle). */

type Result = SubmissionResult<string[]> | null | undefined;

export function SecondaryIpsDialog({ node, lastResult }: { node: EndpointNodeDetail | null; lastResult: Result }) {
  return (
    <UrlDialog name="secondary-ips" title="Add Secondary IPs">
      {node ? (
        <SecondaryIpsForm key={node.ep_node_id} node={node} lastResult={lastResult} />
      ) : (
        <>
          <p role="alert">{goneText}</p>
          <DialogActions />
        </>
      )}
    </UrlDialog>
  );
}

function SecondaryIpsForm({ node, lastResult }: { node: EndpointNodeDetail; lastResult: Result }) {
  const [form, fields] = useForm<{ secondary_ips: string }>({ id: `secondary-ips-${node.ep_node_id}`, lastResult, constraint: useConstraint("secondary-ips") });
  const pending = useIsPending({ intent: "secondary-ips" });
  return (
    <ConformForm form={form} intent="secondary-ips">
      <input type="hidden" name="ep_node_id" value={node.ep_node_id} />
      <p className="mb-1">
        Node <strong>{node.ep_node_name}</strong>: primary IP {node.primary_ip || "none"}
        {node.secondary_ips.length ? <>, secondary IPs {node.secondary_ips.join(", ")}</> : null}.
      </p>
      <TextField field={fields.secondary_ips} label="Secondary IPs" hint="Comma separated IPv4 addresses, e.g. 10.0.0.21, 10.0.0.22" autoComplete="off" />
      <DialogActions>
        <SubmitButton pending={pending}>Add</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

export function LanDialog({ node, lastResult }: { node: EndpointNodeDetail | null; lastResult: Result }) {
  return (
    <AddressToggleDialog
      texts={LAN}
      current={node ? { enabled: node.lan_interface_enabled, address: node.lan_interface_ipaddress } : null}
      gone={goneText}
      fields={{ node_id: node?.ep_node_id ?? "" }}
      lastResult={lastResult}
    >
      <p className="mb-1">
        Node: <strong>{node?.ep_node_name}</strong>
      </p>
    </AddressToggleDialog>
  );
}
