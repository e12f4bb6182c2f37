import type { ImportSchema } from "./schemas.server.ts";
import type { z } from "zod";
import type { SubmissionResult } from "@conform-to/react";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { DetailsTable } from "../../components/details-table.tsx";
import { ConformForm, SubmitButton, TextareaField, useForm } from "../../components/forms.tsx";
import { useConstraint, useIsPending } from "../../components/hooks.ts";
import { formatTime } from "../../lib/format.ts";
import { certificateWarningDays, type NodeCertificate, type ServiceNodeGroupDetail, type ServiceNodeGroupRow } from "./model.ts";
import { goneMessages } from "../../lib/messages.ts";

/* Import External Certificates (spec 2 §4, §5) and the selected group's certificate (subject, issuer, serial, expiry). */

type Result = SubmissionResult<string[]> | null | undefined;

export function ImportDialog({ group, lastResult }: { group: ServiceNodeGroupRow | null; lastResult: Result }) {
  return (
    <UrlDialog name="import" title="Import External Certificates" size="lg">
      {group ? (
        group.external_certificate ? (
          <>
            <p>The group already has an external certificate: disable its External Root CA first.</p>
            <DialogActions />
          </>
        ) : (
          <ImportForm group={group} lastResult={lastResult} />
        )
      ) : (
        <>
          <p role="alert">{goneMessages.nodeGroup}</p>
          <DialogActions />
        </>
      )}
    </UrlDialog>
  );
}

const pemHint = "PEM text, from -----BEGIN to -----END; at most 64 KB.";

function ImportForm({ group, lastResult }: { group: ServiceNodeGroupRow; lastResult: Result }) {
  const [form, fields] = useForm<z.input<typeof ImportSchema>>({ id: `import-${group.service_node_group_id}`, lastResult, constraint: useConstraint("import") });
  const pending = useIsPending({ intent: "import" });
  return (
    <ConformForm form={form} intent="import">
      <input type="hidden" name="service_node_group_id" value={group.service_node_group_id} />
      <p className="mb-1">
        Node group: <strong>{group.service_node_group_name}</strong>
      </p>
      <TextareaField field={fields.certificate!} label="Certificate" hint={pemHint} rows={5} />
      <TextareaField field={fields.private_key!} label="Private Key" hint="The certificate's private key, unencrypted PEM. It is stored encrypted and never shown again." rows={5} />
      <TextareaField field={fields.ca_chain!} label="CA Chain" hint="The issuing CA certificates, PEM, one after another." rows={5} />
      <DialogActions>
        <SubmitButton pending={pending}>Import</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

export function CertificateWarning({ c }: { c: NodeCertificate }) {
  if (!c.expires_within_30_days) return null;
  const expired = Date.parse(c.valid_to) <= Date.now();
  return (
    <p role="status" className="alert alert-warning mb-3">
      <span aria-hidden="true">⚠</span>
      <span>
        <strong>Warning:</strong> {expired ? "the certificate has expired" : `the certificate expires within ${certificateWarningDays} days`} ({formatTime(c.valid_to)}). Import a new one.
      </span>
    </p>
  );
}

export function GroupDetails({ group }: { group: ServiceNodeGroupDetail }) {
  const c = group.certificate;
  return (
    <section aria-labelledby="group-details" className="card bg-base-100 shadow-sm">
      <div className="card-body p-4">
        <h2 id="group-details" className="text-lg font-semibold wrap-anywhere">
          {group.service_node_group_name}
        </h2>
        {c ? <CertificateWarning c={c} /> : null}
        <DetailsTable
          items={[
            { label: "Node Group Id", value: group.service_node_group_id },
            { label: "Created at", value: formatTime(group.created_at) },
            { label: "Service Nodes", value: group.service_nodes.map((n) => n.service_node_name).join(", ") },
            { label: "External Certificate", value: c ? "Yes" : "No" },
            ...(c
              ? [
                  { label: "Subject", value: c.subject },
                  { label: "Issuer", value: c.issuer },
                  { label: "Serial", value: c.serial_number },
                  { label: "Valid from", value: formatTime(c.valid_from) },
                  { label: "Expires", value: formatTime(c.valid_to) },
                  { label: "SHA-256 fingerprint", value: c.fingerprint_sha256 },
                ]
              : []),
          ]}
        />
      </div>
    </section>
  );
}
