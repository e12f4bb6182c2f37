import type { SubmissionResult } from "@conform-to/react";
import type { z } from "zod";
import type { AssignEntitySchema, CreateIamUserSchema } from "./schemas.server.ts";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { IAM_USER_GONE, iamRoles, type IamUser } from "./model.ts";
import { roleLabel } from "./columns.ts";
import { DialogActions, DialogGone, DialogWarning, UrlDialog } from "../../components/dialog.tsx";
import { ConformForm, SelectField, SubmitButton, TextField, useIntentForm } from "../../components/forms.tsx";
import { useHydrated } from "../../components/hooks.ts";

/*
 * The IAM screen's dialogs (opened by ?dialog=create|assign|role[&id=…]). The action validates with
 * the schemas of schemas.server.ts; no client-side validation, so errors come from the server's
 * reply with and without JavaScript.
 */

type Result = SubmissionResult<string[]> | null | undefined;

const labels = { username: "Username", role: "Role", entity_name: "Entity", name: "Name", new_entity_name: "Entity", new_role: "Role" };

const roleOptions = iamRoles.map((r) => ({ value: r, label: roleLabel(r) }));
const entityOptions = (names: string[]) => names.map((n) => ({ value: n, label: n }));

function NoEntities() {
  return (
    <DialogWarning>
      There are no entities yet. Each IAM user is tied to an entity: <Link to="/entities" className="link">create an entity</Link> first.
    </DialogWarning>
  );
}

const gone = <DialogGone>{IAM_USER_GONE}</DialogGone>;

export function CreateDialog({ entityNames, lastResult }: { entityNames: string[]; lastResult: Result }) {
  // The form's fields are its schema's (a misspelt field is a type error); types only, no zod here.
  const { form, fields, pending } = useIntentForm<z.input<typeof CreateIamUserSchema>>("create", {
    id: "create-iam-user",
    lastResult,
    defaultValue: { role: "readonly" },
  });
  // Create stays disabled while the username is empty (spec 1 §5); without JavaScript it cannot
  // follow the typing, so it stays enabled and the server answers the empty username.
  const hydrated = useHydrated();
  const [username, setUsername] = useState(String(fields.username.initialValue ?? ""));
  const onInput = (e: FormEvent<HTMLFormElement>) => {
    const target = e.target as HTMLInputElement;
    if (target.name === "username") setUsername(target.value);
  };
  return (
    <UrlDialog name="create" title="Add IAM User">
      {entityNames.length === 0 ? <NoEntities /> : null}
      <ConformForm form={form} intent="create" onInput={onInput}>
        <TextField field={fields.username} label={labels.username} type="email" autoComplete="off" hint="The new user's e-mail address: the set-up link is sent there." />
        <SelectField field={fields.role} label={labels.role} options={roleOptions} placeholder={null} />
        <SelectField field={fields.entity_name} label={labels.entity_name} options={entityOptions(entityNames)} placeholder="Select an entity" />
        <TextField field={fields.name} label={labels.name} autoComplete="off" />
        <DialogActions>
          <SubmitButton pending={pending} disabled={hydrated && username.trim() === ""}>
            Create
          </SubmitButton>
        </DialogActions>
      </ConformForm>
    </UrlDialog>
  );
}

export function AssignDialog({ user, entityNames, lastResult }: { user: IamUser | null; entityNames: string[]; lastResult: Result }) {
  return (
    <UrlDialog name="assign" title="Assign Entity">
      {user ? <AssignForm key={user.iam_user_id} user={user} entityNames={entityNames} lastResult={lastResult} /> : gone}
    </UrlDialog>
  );
}

function AssignForm({ user, entityNames, lastResult }: { user: IamUser; entityNames: string[]; lastResult: Result }) {
  const { form, fields, pending } = useIntentForm<z.input<typeof AssignEntitySchema>>("assign", { id: `assign-iam-entity-${user.iam_user_id}`, lastResult });
  return (
    <ConformForm form={form} intent="assign">
      <input type="hidden" name="iam_user_id" value={user.iam_user_id} />
      <p className="mb-2">
        Tie <strong>{user.username}</strong> to an entity{user.entity_name ? <> (now: {user.entity_name})</> : null}.
      </p>
      {entityNames.length === 0 ? <NoEntities /> : null}
      <SelectField field={fields.new_entity_name} label={labels.new_entity_name} options={entityOptions(entityNames)} placeholder="Select an entity" />
      <DialogActions>
        <SubmitButton pending={pending}>Assign Entity</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

export function RoleDialog({ user, lastResult }: { user: IamUser | null; lastResult: Result }) {
  return (
    <UrlDialog name="role" title="Update IAM role">
      {user ? <RoleForm key={user.iam_user_id} user={user} lastResult={lastResult} /> : gone}
    </UrlDialog>
  );
}

function RoleForm({ user, lastResult }: { user: IamUser; lastResult: Result }) {
  const { form, fields, pending } = useIntentForm("role", { id: `update-iam-role-${user.iam_user_id}`, lastResult, defaultValue: { new_role: user.role } });
  return (
    <ConformForm form={form} intent="role">
      <input type="hidden" name="iam_user_id" value={user.iam_user_id} />
      <p className="mb-2">
        The role of <strong>{user.username}</strong>: a readonly user sees every screen and changes nothing; an admin may do everything but
        billing and deleting the account.
      </p>
      <SelectField field={fields.new_role} label={labels.new_role} options={roleOptions} placeholder={null} />
      <DialogActions>
        <SubmitButton pending={pending}>Update IAM role</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}
