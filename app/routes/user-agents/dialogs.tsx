import type { LinkSchema } from "./schemas.server.ts";
import type { z } from "zod";
import type { SubmissionResult } from "@conform-to/react";
import { Link } from "react-router";
import { USER_AGENT_GONE, userAgentMessages, type UserAgent, type UserAgentEndpoint } from "./model.ts";
import { DialogActions, DialogGone, DialogWarning, UrlDialog } from "../../components/dialog.tsx";
import { ConformForm, SelectField, SubmitButton, TextareaField, TextField, useIntentForm } from "../../components/forms.tsx";

/*
 * The User Agents screen's dialogs (opened by ?dialog=create|link|unlink[&id=…]). The action
 * validates with the schemas of schemas.server.ts; no client-side validation, so errors come from
 * the server's reply with and without JavaScript. Each endpoint choice comes from the platform
 * (user_agent_get_unlinked_ep, user_agent_get_linked_ep); none: the spec's warning (§5).
 */

type Result = SubmissionResult<string[]> | null | undefined;

const labels = { name: "Name", email: "Email", description: "Description", ep_id: "Endpoint" };

const endpointOptions = (eps: UserAgentEndpoint[]) => eps.map((e) => ({ value: e.ep_id, label: `${e.ep_name} (${e.ep_id})` }));

const gone = <DialogGone>{USER_AGENT_GONE}</DialogGone>;

export function CreateDialog({ endpoints, lastResult }: { endpoints: UserAgentEndpoint[]; lastResult: Result }) {
  const { form, fields, pending } = useIntentForm<{ name: string; email: string; description: string; ep_id: string }>("create", {
    id: "create-user-agent",
    lastResult,
  });
  return (
    <UrlDialog name="create" title="Create User Agent">
      {endpoints.length === 0 ? (
        <DialogWarning>
          {userAgentMessages.noEndpoints}{" "}
          <Link to="/endpoints" className="link">
            Create an endpoint
          </Link>{" "}
          first.
        </DialogWarning>
      ) : null}
      <ConformForm form={form} intent="create" labels={labels}>
        <TextField field={fields.name} label={labels.name} autoComplete="off" />
        <TextField field={fields.email} label={labels.email} type="email" autoComplete="off" />
        <TextareaField field={fields.description} label={labels.description} />
        <SelectField field={fields.ep_id} label={labels.ep_id} options={endpointOptions(endpoints)} placeholder="Select an endpoint" hint="The agent can be linked to more endpoints later (Link)." />
        <DialogActions>
          <SubmitButton pending={pending}>Create</SubmitButton>
        </DialogActions>
      </ConformForm>
    </UrlDialog>
  );
}

/** Link (unlinked endpoints offered) or Unlink (linked ones): the same form, another call. */
export function LinkDialog({ mode, agent, endpoints, lastResult }: { mode: "link" | "unlink"; agent: UserAgent | null; endpoints: UserAgentEndpoint[]; lastResult: Result }) {
  return (
    <UrlDialog name={mode} title={mode === "link" ? "Link User Agent" : "Unlink User Agent"}>
      {agent ? <LinkForm key={agent.user_agent_id} mode={mode} agent={agent} endpoints={endpoints} lastResult={lastResult} /> : gone}
    </UrlDialog>
  );
}

function LinkForm({ mode, agent, endpoints, lastResult }: { mode: "link" | "unlink"; agent: UserAgent; endpoints: UserAgentEndpoint[]; lastResult: Result }) {
  const { form, fields, pending } = useIntentForm<z.input<typeof LinkSchema>>(mode, { id: `${mode}-user-agent-${agent.user_agent_id}`, lastResult });
  const link = mode === "link";
  return (
    <ConformForm form={form} intent={mode} labels={labels}>
      <input type="hidden" name="user_agent_id" value={agent.user_agent_id} />
      <p className="mb-2">
        {link ? "Link" : "Unlink"} <strong>{agent.name}</strong> ({agent.email}) {link ? "to" : "from"} an endpoint. It is linked to{" "}
        {agent.ep_ids.length === 1 ? "1 endpoint" : `${agent.ep_ids.length} endpoints`}.
      </p>
      {endpoints.length === 0 ? <DialogWarning>{link ? userAgentMessages.noEndpoints : userAgentMessages.noLinkedEndpoints}</DialogWarning> : null}
      <SelectField field={fields.ep_id} label={labels.ep_id} options={endpointOptions(endpoints)} placeholder="Select an endpoint" />
      <DialogActions>
        <SubmitButton pending={pending}>{link ? "Link" : "Unlink"}</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}
