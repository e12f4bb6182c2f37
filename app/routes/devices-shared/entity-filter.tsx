import { Form, useLocation, useSubmit } from "react-router";
import { useHydrated } from "../../components/hooks.ts";
import { keptParams } from "../../lib/url.ts";

/*
 * The entity filter of the device screens (spec 3 §2.10, §2.11): a dropdown of None plus the
 * account's entity names, in the URL (`?entity=`). A GET form: without JavaScript its Apply button
 * submits it; with JavaScript a change applies at once. The table's search, sort and page size
 * are kept; the page, the selection and an open dialog are not (the rows changed).
 */

export const ENTITY_PARAM = "entity";
const DROPPED = [ENTITY_PARAM, "page", "selected", "tab", "dialog", "id", "range", "data"];

export function EntityFilter({ entities, current, id = "entity-filter" }: { entities: readonly string[]; current: string | null; id?: string }) {
  const location = useLocation();
  const hydrated = useHydrated();
  const submit = useSubmit();
  return (
    <Form method="get" className="flex flex-wrap items-end gap-2" aria-label="Filter by entity" preventScrollReset>
      {keptParams(location.search, DROPPED).map(([k, v], i) => (
        <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
      ))}
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-semibold">
          Entity
        </label>
        <select
          id={id}
          name={ENTITY_PARAM}
          defaultValue={current ?? ""}
          key={current ?? ""}
          className="select select-sm w-64 max-w-full"
          onChange={hydrated ? (e) => submit(e.currentTarget.form, { preventScrollReset: true }) : undefined}
        >
          <option value="">None</option>
          {entities.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      {/*
       * Without JavaScript only: inside <noscript>, a browser that runs scripts never lays it out,
       * so the table below does not move up when the page hydrates (at 320 px the button wrapped
       * onto a line of its own: 40 px). The price: a change made before hydration is not applied.
       */}
      <noscript>
        <button type="submit" className="btn btn-sm btn-outline">
          Apply
        </button>
      </noscript>
    </Form>
  );
}
