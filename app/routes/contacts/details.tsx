import { Form, useLocation, useNavigation, useSearchParams } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { keptParams } from "../../lib/url.ts";
import { DetailsTable } from "../../components/details-table.tsx";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { SubmitButton } from "../../components/forms.tsx";
import { currentTab, TabPanel, Tabs } from "../../components/tabs.tsx";
import { contactName, type AssignedEntity, type Contact } from "./model.tsx";
import { useCanWrite, usePendingIntent } from "../../components/hooks.ts";

/*
 * The selected contact (exactly one selected): a Details tab listing its assigned entities, each
 * with Unassign Entity (a button that asks for confirmation in a dialog: ?dialog=unassign&id={entity}).
 */

const tabs = [{ id: "details", label: "Details" }] as const;

export function ContactDetails({ contact, assigned }: { contact: Contact; assigned: AssignedEntity[] }) {
  const [params] = useSearchParams();
  const location = useLocation();
  const tab = currentTab(params, tabs.map((t) => t.id));
  const name = contactName(contact);
  const canWrite = useCanWrite();
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body p-4">
        <h2 className="text-lg font-semibold">{name}</h2>
        <Tabs label={`Contact ${name}`} tabs={tabs} current={tab} />
        <TabPanel tab={tab}>
          <DetailsTable
            className="mb-4"
            items={[
              { label: "Email", value: contact.email },
              { label: "Phone", value: contact.phone },
              { label: "Company", value: contact.company_name },
              { label: "Type", value: contact.contact_type },
            ]}
          />
          <h3 className="mb-2 font-semibold" id="assigned-entities">
            Assigned entities
          </h3>
          <div className="overflow-x-auto">
            <table className="table table-sm" aria-labelledby="assigned-entities">
              <thead>
                <tr>
                  <th scope="col">Entity Name</th>
                  <th scope="col">Description</th>
                  <th scope="col">Types</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {assigned.length === 0 ? (
                  <tr>
                    <td colSpan={4} className="text-base-content/70 py-6 text-center">
                      No data
                    </td>
                  </tr>
                ) : (
                  assigned.map((e) => (
                    <tr key={e.entity_id}>
                      <td>{e.entity_name}</td>
                      <td>{e.description}</td>
                      <td>{e.contact_types.split(",").join(", ")}</td>
                      <td className="text-right">
                        {/* A GET form: opens the confirmation dialog (the URL keeps the rest of the state). Writers only. */}
                        {canWrite ? (
                          <Form method="get" preventScrollReset>
                            {keptParams(location.search, []).map(([k, v], i) => (
                              <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
                            ))}
                            <input type="hidden" name="dialog" value="unassign" />
                            <input type="hidden" name="id" value={e.entity_name} />
                            <button type="submit" className="btn btn-outline btn-error btn-xs" aria-label={`Unassign Entity ${e.entity_name}`}>
                              Unassign Entity
                            </button>
                          </Form>
                        ) : null}
                      </td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        </TabPanel>
      </div>
    </div>
  );
}

export function UnassignDialog({ contact, entityName }: { contact: Contact; entityName: string }) {
  const navigation = useNavigation();
  const pending = usePendingIntent() === "unassign";
  return (
    <UrlDialog name="unassign" title="Unassign Entity">
      <Form method="post">
        <AuthenticityTokenInput name="csrf" />
        <input type="hidden" name="intent" value="unassign" />
        <input type="hidden" name="contact_id" value={contact.contact_id} />
        <input type="hidden" name="entity_name" value={entityName} />
        <p>
          Unassign <strong>{contactName(contact)}</strong> from the entity <strong>{entityName}</strong>?
        </p>
        <DialogActions>
          <SubmitButton className="btn btn-error" pending={pending}>
            Unassign Entity
          </SubmitButton>
        </DialogActions>
      </Form>
    </UrlDialog>
  );
}
