import { platformPdf, pdfRefusal } from "../../lib/platform-pdf.server.ts";
import { deviceKinds } from "./kind.ts";
import { deviceMessages, idField, kindOf } from "./activation.ts";
import type { Route } from "./+types/activation-report-pdf";

/*
 * GET /devices/:kind/:id/activation-report.pdf: Retrieve Activation Test Report, the A4 PDF of the
 * device's last finished test (platform get_<kind>_test_report_pdf), streamed through as an
 * attachment so a plain link downloads it without JavaScript. None: 404 'There is no test data.'.
 */
export function loader({ request, params }: Route.LoaderArgs) {
  const kind = kindOf(params.kind);
  if (!kind) return pdfRefusal(404, "Not found");
  return platformPdf(request, {
    call: `get_${kind}_test_report_pdf`,
    query: { [idField(kind)]: params.id },
    fileName: `activation-test-${params.id}.pdf`,
    download: true,
    back: deviceKinds[kind].path,
    refused: () => deviceMessages.noTestData,
  });
}
