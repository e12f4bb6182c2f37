import { Link } from "react-router";

/*
 * The top bar's FAQ link (spec 1 §1: "an FAQ link") lands here, /support#faq. The spec gives the
 * link but no questions: these answer what the console's own screens do, and point to them.
 * Plain <details>: they open and close without JavaScript.
 */
const questions: { q: string; a: React.ReactNode }[] = [
  {
    q: "How do I get help with a service or a device?",
    a: (
      <>
        Use <strong>Create Ticket</strong> above: choose a priority and a category, and the device if the question is about one.
        Replies appear on the ticket's Correspondence tab, newest first, where you can answer with <strong>Reply</strong>. No
        Create Ticket button means your role is Readonly: ask an administrator of the account.
      </>
    ),
  },
  {
    q: "Can a ticket be reopened after it is resolved?",
    a: <>No. Resolving closes the ticket for good, and no reply can be added afterwards. Create a new ticket and mention the old ticket ID.</>,
  },
  {
    q: "How do I publish an application privately?",
    a: (
      <>
        Create an App Service on <Link to="/app-services" className="link">App Services</Link> for where it runs (AWS, Azure, on premises or a
        whole network), then create the <Link to="/endpoints" className="link">Endpoints</Link> that reach it. An endpoint waiting for approval is
        approved or rejected on the App Service's Endpoints tab.
      </>
    ),
  },
  {
    q: "Why can some users see but not change anything?",
    a: (
      <>
        IAM users with the Readonly role (the default for a new IAM user) can look but not change: the console offers them no button that
        would. An administrator changes roles on <Link to="/iam" className="link">IAM</Link>. Billing is shown only to the account's own
        sign-in, not to IAM users.
      </>
    ),
  },
  {
    q: "Where can I see who changed what?",
    a: (
      <>
        <Link to="/histories" className="link">Change Logs</Link> lists every change made in the account, newest first, with who made it, and can
        be filtered and exported as CSV.
      </>
    ),
  },
  {
    q: "How do I find out why an application is slow?",
    a: (
      <>
        Test Reachability in an App Service's or an Endpoint's row menu measures latency now. For a closer look, upload a packet capture to the{" "}
        <Link to="/pcap-analyzer?from=%2Fsupport" className="link">PCAP Analyzer</Link>: it reports each flow's performance and gives a PDF report.
      </>
    ),
  },
];

export function Faq() {
  return (
    <section id="faq" aria-labelledby="faq-title" className="space-y-2 scroll-mt-20 pt-4">
      <h2 id="faq-title" className="text-lg font-semibold" tabIndex={-1}>
        Frequently asked questions
      </h2>
      <div className="join join-vertical w-full">
        {questions.map(({ q, a }) => (
          <details key={q} className="collapse collapse-arrow join-item border border-base-300 bg-base-100">
            <summary className="collapse-title font-medium">{q}</summary>
            <div className="collapse-content text-sm">
              <p>{a}</p>
            </div>
          </details>
        ))}
      </div>
    </section>
  );
}
