import type { FormConstraint } from "../../components/constraints.server.ts";
import { CheckboxField, TextField } from "../../components/forms.tsx";

/*
 * The create forms' parts App Services and Endpoints share (spec 1 §2): the deployment switch and
 * the BGP fields of network mode.
 */

/**
 * The create form's deployment (location) choice: submit buttons, so what was typed travels with
 * the switch and comes back in the URL's draft (./draft.ts), with or without JavaScript.
 */
export function DeploymentSwitch({ legend, current, options }: { legend: string; current: string; options: { value: string; label: string }[] }) {
  return (
    <fieldset className="fieldset">
      <legend className="fieldset-legend">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((o) => (
          <button
            key={o.value}
            type="submit"
            name="switch"
            value={`deployment=${o.value}`}
            formNoValidate
            aria-pressed={o.value === current}
            className={`btn btn-sm ${o.value === current ? "btn-primary" : "btn-outline"}`}
          >
            {o.label}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

type Field = Parameters<typeof TextField>[0]["field"];

/**
 * BGP in network mode (app services, endpoints): the switch and its three fields, each label
 * saying when it applies (`when`); the ASNs as number inputs or as text.
 */
export function BgpFields({ fields, when, asnInput }: { fields: Record<"bgp_enabled" | "bgp_local_asn" | "bgp_peer_asn" | "bgp_peer_ip", Field>; when: string; asnInput: "number" | "text" }) {
  const asn = asnInput === "number" ? { type: "number" as const } : { autoComplete: "off" };
  return (
    <>
      <CheckboxField field={fields.bgp_enabled} label="BGP" />
      <div className="grid gap-x-4 sm:grid-cols-3">
        <TextField field={fields.bgp_local_asn} label={`Local ASN (${when})`} {...asn} />
        <TextField field={fields.bgp_peer_asn} label={`Peer ASN (${when})`} {...asn} />
        <TextField field={fields.bgp_peer_ip} label={`Peer IP (${when})`} autoComplete="off" />
      </div>
    </>
  );
}

/**
 * The schema's constraints with a location's required fields marked `required` (the call's rules
 * say which: createAppServiceRequired, createEndpointRequired, addHostingRequired); one form serves
 * every location, so its schema leaves them optional.
 */
export function markRequired(base: FormConstraint, fields: readonly string[]): FormConstraint {
  const out: FormConstraint = { ...base };
  for (const f of fields) out[f] = { ...out[f], required: true };
  return out;
}
