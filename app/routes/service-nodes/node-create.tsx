import type { SubmissionResult } from "@conform-to/react";
import { useState, type FormEvent } from "react";
import { Link, useLocation } from "react-router";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { ConformForm, formHasErrors, PageTitle, SelectField, SubmitButton, TextField, useForm } from "../../components/forms.tsx";
import { useConstraint, useIsPending } from "../../components/hooks.ts";
import { hrefWith } from "../../lib/url.ts";
import { FormFactorPanel, type FormFactorProps } from "./node-form-factor.tsx";
import { formFactorText, type NodeKindInfo, type NodeView } from "./node-kind.ts";
import { goneMessages } from "../../lib/messages.ts";

/*
 * Create {Endpoint|Service} Node, the three-step flow (spec 2 §2, §4): 1 the node and its group
 * (a new group by name or an existing one), 2 the form factor (default Hosted Node; Skip for now),
 * 3 Finish. Each step is a URL (`?dialog=create`, `&step=form-factor&id=…&ff=…`,
 * `&step=finish&id=…`), so the flow works without JavaScript, survives a reload and is resumed
 * from the row menu of a node that has no form factor yet.
 */

type Result = SubmissionResult<string[]> | null | undefined;
export const CREATE_STEPS = ["node", "form-factor", "finish"] as const;
export type CreateStep = (typeof CREATE_STEPS)[number];
const stepLabels: Record<CreateStep, string> = { node: "Create", "form-factor": "Choose form factor", finish: "Finish" };

export interface GroupChoice {
  id: string;
  name: string;
}

export interface CreateFlowProps extends Omit<FormFactorProps, "node" | "creating"> {
  step: CreateStep;
  node: NodeView | null;
  groups: GroupChoice[];
  screen: string;
}

function Steps({ step }: { step: CreateStep }) {
  const at = CREATE_STEPS.indexOf(step);
  return (
    <ol className="steps steps-horizontal mb-3 w-full text-sm" aria-label="Steps">
      {CREATE_STEPS.map((s, i) => (
        <li key={s} className={`step ${i <= at ? "step-primary" : ""}`} aria-current={i === at ? "step" : undefined}>
          {stepLabels[s]}
          {i < at ? <span className="sr-only"> (done)</span> : null}
        </li>
      ))}
    </ol>
  );
}

export function CreateNodeDialog(props: CreateFlowProps) {
  const { info, step, node, screen } = props;
  const location = useLocation();
  const title = `Create ${info.noun}`;
  return (
    <UrlDialog name="create" title={title} size="lg" closeHref={hrefWith(location, { dialog: null, id: null, step: null, ff: null })}>
      <PageTitle title={`${title} - ${screen}`} />
      <Steps step={step} />
      {step === "node" ? <NodeStep {...props} /> : null}
      {step !== "node" && !node ? (
        <>
          <p role="alert">{goneMessages.node}</p>
          <DialogActions />
        </>
      ) : null}
      {step === "form-factor" && node ? <FormFactorStep {...props} node={node} /> : null}
      {step === "finish" && node ? <FinishStep info={info} node={node} lastResult={props.lastResult} /> : null}
    </UrlDialog>
  );
}

function NodeStep({ info, groups, lastResult, screen }: CreateFlowProps) {
  const [form, fields] = useForm<Record<string, string>>({
    id: `create-${info.kind}-node`,
    lastResult,
    constraint: useConstraint("create"),
    defaultValue: { group_mode: groups.length ? "existing" : "new" },
  });
  const pending = useIsPending({ intent: "create" });
  const mode = fields.group_mode!;
  // Which group field is required follows the choice (issue 63 item 18): at once with JavaScript;
  // without, as the server last saw it, each label saying when it is required.
  const [chosen, setChosen] = useState(String(mode.initialValue ?? "existing"));
  const onInput = (e: FormEvent<HTMLFormElement>) => {
    const t = e.target as HTMLInputElement;
    if (t.name === mode.name && t.checked) setChosen(t.value);
  };
  return (
    <ConformForm form={form} intent="create" onInput={onInput}>
      <PageTitle title={`Create ${info.noun} - ${screen}`} error={formHasErrors(form)} />
      <TextField field={fields[info.nameField]!} label="Node Name" autoComplete="off" />
      <fieldset className="fieldset">
        <legend className="fieldset-legend">Node Group</legend>
        {(["existing", "new"] as const).map((m) => (
          <label key={m} className="label text-base-content cursor-pointer justify-start gap-2">
            <input type="radio" name={mode.name} value={m} defaultChecked={(mode.initialValue ?? "existing") === m} className="radio radio-sm" />
            {m === "existing" ? "An existing group" : "A new group"}
          </label>
        ))}
      </fieldset>
      <SelectField
        field={fields[info.groupIdField]!}
        label="Existing Node Group"
        options={groups.map((g) => ({ value: g.id, label: g.name }))}
        placeholder="Select a node group"
        hint={groups.length ? undefined : "There are no node groups yet: name a new one."}
        required={chosen === "existing"}
        requiredWhen="joining an existing node group"
      />
      <TextField
        field={fields[info.groupNameField]!}
        label="New Node Group Name"
        autoComplete="off"
        required={chosen === "new"}
        requiredWhen="making a new node group"
      />
      <DialogActions>
        <SubmitButton pending={pending}>Next</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

function FormFactorStep(props: CreateFlowProps & { node: NodeView }) {
  const location = useLocation();
  return (
    <>
      <FormFactorPanel {...props} creating />
      <div className="modal-action">
        <Link to={hrefWith(location, { step: "finish", ff: null })} className="btn btn-primary" preventScrollReset>
          Next
        </Link>
      </div>
    </>
  );
}

function FinishStep({ info, node, lastResult }: { info: NodeKindInfo; node: NodeView; lastResult: Result }) {
  const location = useLocation();
  const [form] = useForm({ id: `finish-${node.id}`, lastResult });
  const pending = useIsPending({ intent: "finish" });
  return (
    <ConformForm form={form} intent="finish">
      <input type="hidden" name="node_id" value={node.id} />
      <p>
        The {info.noun.toLowerCase()} <strong>{node.name}</strong> is in the group <strong>{node.groupName || node.groupId}</strong>, with the form factor{" "}
        <strong>{formFactorText(node.form_factor)}</strong>.
      </p>
      <div className="modal-action">
        <Link to={hrefWith(location, { step: "form-factor" })} className="btn" preventScrollReset>
          Back
        </Link>
        <SubmitButton pending={pending}>Finish</SubmitButton>
      </div>
    </ConformForm>
  );
}
