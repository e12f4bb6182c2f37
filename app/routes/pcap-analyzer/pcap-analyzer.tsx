import { data, Link, redirect, useNavigation, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import { AnalysisProgress } from "./analysis-progress.tsx";
import { AnalysisSummary, DegradedBar, SessionsTable, Warnings } from "./results.tsx";
import { sessionQuery } from "./sessions-query.ts";
import { ReportDialog, reportPdfHref, type ReportState } from "./report-dialog.tsx";
import { UploadForm } from "./upload-form.tsx";
import { decodeAsFromUrl, EncapsulationNote, vniFromUrl, VniFilter } from "./mirror.tsx";
import { PageTitle } from "../../components/forms.tsx";
import { apiGet, apiPost, detailText } from "../../lib/api.server.ts";
import { intentAction } from "../../lib/action.server.ts";
import { messages, parseZoom, safeFrom, uploadErrorFromCode, uploadErrorMessage, type PcapSession, PCAP_DEFAULT_PAGE_SIZE, PCAP_SESSION_SORTABLE } from "../../lib/pcap.ts";
import { analysisFailure } from "../../lib/pcap.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { useCanWrite } from "../../components/hooks.ts";
import { ErrorPage } from "../../root.tsx";
import { parseTableQuery, type TablePage } from "../../lib/table.server.ts";
import { rowsJson } from "../../lib/table-rows.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import type { Route } from "./+types/pcap-analyzer";

/* ------------------------------------------------------------------------------------------------
 * The PCAP Analyzer (spec 1 §2 'PCAP Analyzer dialog', §3, §4 'PCAP flow', §5, §7 'PCAP', §8, §9):
 * "the dialog reachable by URL" (docs/decisions/2026-11-22-pcap-analyzer-route.md). Its state is
 * the URL: `?from=` (where Close goes), `key` + `name` (the analysed capture), the sessions table's
 * `page/size/q/sort`, `vni` (mirrored traffic: the sessions of one VNI), `decode_as` (the upload's
 * decode-as rule, sent with the first analyse request), `session` + `dialog=report` (the report
 * dialog) and `zoom`. `analyzing=1`:
 * the capture was just uploaded from this page. Its analysis is a job on the platform's queue: the
 * page shows its progress until it is done, then the sessions with 'Successfully analyzed.' (or the
 * failure beside the file field), and drops `analyzing` from the URL.
 * ---------------------------------------------------------------------------------------------- */

/** A dialog-like page: the whole width for the sessions table, no side navigation (the shell reads this). */
export const handle = { hideNav: true };

/** The sessions table remembers its own page size (default 50, spec 1 §2), apart from the other tables. */
const TABLE = { sortable: PCAP_SESSION_SORTABLE, defaultSize: PCAP_DEFAULT_PAGE_SIZE, cookieName: "pcap_page_size" } as const;

function analyzerHref(params: Record<string, string | null | undefined>) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `/pcap-analyzer?${s}` : "/pcap-analyzer";
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireSession(request);
  const url = new URL(request.url);
  const params = url.searchParams;
  const rawFrom = params.get("from");
  const from = rawFrom ? safeFrom(rawFrom) : null;
  const key = params.get("key");
  const name = params.get("name");
  const base = { from, closeHref: from ?? "/main-dashboard", key, name, uploadError: uploadErrorFromCode(params.get("upload_error")) };
  const headers = { "Cache-Control": "private, no-store" };
  const none = { analysis: null, progress: null, refreshHref: null, error: null, table: null, report: null, session: null, vni: null };
  if (!key || !name) return data({ ...base, ...none }, { headers });

  const { state, headers: tableHeaders } = parseTableQuery(request, TABLE);
  tableHeaders.set("Cache-Control", headers["Cache-Control"]);
  const justUploaded = params.get("analyzing") === "1";
  // The platform searches, sorts and pages the sessions: only this page travels.
  const vni = vniFromUrl(params.get("vni"));
  const decodeAs = decodeAsFromUrl(params.get("decode_as"));
  const res = await apiGet(request, "analyze-s3-pcap", {
    pcap_file_key: key,
    pcap_file_name: name,
    ...sessionQuery(state, true, vni),
    decode_as: decodeAs ?? undefined,
  });
  if (!res.ok) {
    const failure = analysisFailure(res.status, res.detail, detailText(res.detail, messages.unknown));
    // Just uploaded from here and not a capture: back to the form, which says so beside the file field.
    if (justUploaded && failure.code) return redirect(analyzerHref({ from, upload_error: failure.code }), 303);
    return data({ ...base, ...none, error: failure.message }, { headers });
  }
  if (res.data.state !== "done") {
    // Queued or running: its progress, asked again by the page (JS) or its Refresh link.
    const progress = { state: res.data.state, size: res.data.size };
    return data({ ...base, ...none, progress, refreshHref: `${url.pathname}${url.search}` }, { headers });
  }
  if (justUploaded) {
    const done = new URLSearchParams(params);
    done.delete("analyzing");
    // Used by the analysis request that queued it: the page's URL no longer needs it.
    done.delete("decode_as");
    return redirectWithToast(request, `/pcap-analyzer?${done.toString()}`, { type: "success", message: messages.analyzed });
  }
  const { sessions, sessions_total, ...analysis } = res.data;
  const pageCount = Math.max(1, Math.ceil(sessions_total / state.size));
  const table: TablePage<PcapSession> = {
    ...state,
    page: Math.min(state.page, pageCount),
    rows: rowsJson(sessions),
    rowCount: sessions.length,
    total: sessions_total,
    unfiltered: analysis.summary.sessions,
    pageCount,
    selected: [],
  };

  const session = params.get("dialog") === "report" ? params.get("session") : null;
  let report: ReportState | null = null;
  if (session) {
    const found = await apiPost(request, "perform-flow-analysis", { pcap_file_key: key, session_id: session });
    report = found.ok
      ? found.data && typeof found.data === "object" && found.data.summary
        ? { ok: true, report: found.data }
        : { ok: false, message: messages.noTestData }
      : {
          ok: false,
          message:
            found.status === 404 || found.status === 422
              ? messages.noTestData
              : (uploadErrorMessage({ status: found.status, body: found.data }) ?? messages.unknown),
        };
  }
  return data({ ...base, ...none, analysis, table, report, session, vni }, { headers: tableHeaders });
}

/**
 * The JS path's last step: the uploaded capture's page, whose loader asks for its analysis (a job
 * on the platform's queue) and shows its progress, then the sessions with 'Successfully analyzed.'.
 */
async function analyze(request: Request, form: FormData) {
  const key = form.get("key");
  const name = form.get("name");
  if (typeof key !== "string" || !key || typeof name !== "string" || !name) {
    return data({ error: messages.noUploadDetails }, { status: 400 });
  }
  // The upload form's decode-as rule (checked by the form's script; anything else is refused here).
  const rawDecodeAs = form.get("decode_as");
  const decodeAs = typeof rawDecodeAs === "string" && rawDecodeAs ? decodeAsFromUrl(rawDecodeAs) : null;
  if (rawDecodeAs && !decodeAs) return data({ error: messages.badDecodeAs }, { status: 400 });
  const rawFrom = new URL(request.url).searchParams.get("from");
  const from = rawFrom ? safeFrom(rawFrom) : null;
  return redirect(analyzerHref({ key, name, from, analyzing: "1", decode_as: decodeAs }), 303);
}

// The form is not a Conform form (the upload script submits it): its own check and reply above.
export const action = intentAction({ analyze });

/** Zoom is read from the URL by the component: changing it needs no new data. */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod !== "GET") return defaultShouldRevalidate;
  if (currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const a = new URLSearchParams(currentUrl.search);
  const b = new URLSearchParams(nextUrl.search);
  a.delete("zoom");
  b.delete("zoom");
  a.sort();
  b.sort();
  if (a.toString() === b.toString() && currentUrl.search !== nextUrl.search) return false;
  return defaultShouldRevalidate;
}

export default function PcapAnalyzer({ loaderData, actionData }: Route.ComponentProps) {
  const { closeHref, from, key, name, analysis, progress, refreshHref, error, table, report, session, uploadError, vni } = loaderData;
  const navigation = useNavigation();
  const canWrite = useCanWrite();
  // Read here, not from the loader: a zoom change does not run the loader again (shouldRevalidate).
  const [params] = useSearchParams();
  const zoom = parseZoom(params.get("zoom"));
  const loadingOther = navigation.state === "loading" && navigation.location.pathname === "/pcap-analyzer" && !navigation.formData;
  return (
    <section
      aria-labelledby="pcap-title"
      className="card bg-base-100 border-base-300 mx-auto w-full max-w-7xl border shadow-xl"
      data-testid="pcap-analyzer"
    >
      <PageTitle title="PCAP Analyzer" error={Boolean(error || uploadError || (actionData && "error" in actionData))} />
      <div className="card-body gap-5 p-3 sm:p-6">
        <header className="border-base-300 -mx-3 -mt-3 flex items-center justify-between gap-4 border-b px-3 py-3 sm:-mx-6 sm:-mt-6 sm:px-6">
          <h1 id="pcap-title" className="text-xl font-semibold">
            PCAP Analyzer
          </h1>
          <Link to={closeHref} className="btn btn-ghost btn-sm gap-1">
            <span aria-hidden="true">✕</span>
            Close<span className="sr-only"> the PCAP Analyzer</span>
          </Link>
        </header>

        {/* Uploading stores a capture in the account: writers only (app/lib/roles.ts). */}
        {canWrite ? (
          <UploadForm from={from} currentKey={analysis || progress ? key : null} serverError={actionData && "error" in actionData ? actionData.error : uploadError} />
        ) : (
          <p className="alert alert-info alert-soft">Your IAM role is readonly: uploading a capture needs an admin or the account owner.</p>
        )}

        {error ? (
          <div role="alert" className="alert alert-error alert-soft border-error text-base-content border">
            <span>
              {name ? <span className="font-semibold break-all">{name}: </span> : null}
              {error}
            </span>
          </div>
        ) : null}

        {progress && name && refreshHref ? <AnalysisProgress name={name} progress={progress} refreshHref={refreshHref} /> : null}

        {analysis && table ? (
          <section aria-labelledby="pcap-results-title" className="flex flex-col gap-4" aria-busy={loadingOther || undefined}>
            <h2 id="pcap-results-title" className="sr-only">
              Results
            </h2>
            <AnalysisSummary fileName={analysis.pcap_file_name} summary={analysis.summary} />
            {/* Optional fields: an analysis stored before mirror sessions has neither (plain traffic). */}
            <EncapsulationNote encapsulation={analysis.encapsulation ?? null} decodeAs={analysis.decode_as ?? []} />
            <DegradedBar summary={analysis.summary} />
            <Warnings warnings={analysis.warnings} />
            {analysis.encapsulation ? <VniFilter encapsulation={analysis.encapsulation} vni={vni} /> : null}
            <SessionsTable page={table} mirrored={Boolean(analysis.encapsulation)} />
          </section>
        ) : null}
      </div>
      {analysis && key && session && report ? <ReportDialog pdfHref={(download) => reportPdfHref(key, session, download)} zoom={zoom} state={report} /> : null}
    </section>
  );
}

/** Inside the shell (whose <main> becomes a <div> then): the root's error page, with a way back. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
