import { cloneElement, Fragment, isValidElement, type ReactElement, type ReactNode } from "react";
import { Scripts } from "react-router";

/*
 * React Router's <Scripts>, with the page's script fetched after the first paint (issue 60).
 *
 * <Scripts> writes a `<link rel="modulepreload">` for every module of the route (30 on a list
 * page, 150–250 KB) and a module script whose static imports fetch them all at once. On slow 4G
 * they shared the connection with the stylesheet, and Lighthouse's simulation counts every request
 * that finished before the first paint into FCP and LCP: the signed-in pages painted at ~2.8 s
 * against the shell's ~2.3 s, each new shared chunk a little later. The page is server-rendered
 * and whole without JavaScript, so the first paint needs none of it.
 *
 * Here the same elements are written, with two changes: the modulepreloads are left out (their
 * URLs go to the loader), and the module script gets an inert type. A small inline script then,
 * once the browser reports the first contentful paint, adds the modulepreloads and the module
 * script with its original text and the page's nonce: from there on it is React Router's own
 * start-up. A hidden page (a background tab) paints nothing until shown, so it loads at once. If
 * <Scripts> ever writes something else than expected (a new React Router), its output is used
 * unchanged.
 */

const moduleId = "rr-modules";
const inertType = "text/x-after-paint";

type ScriptsProps = Parameters<typeof Scripts>[0];
type Props = { href?: string; rel?: string; type?: string; children?: ReactNode };

export function ScriptsAfterPaint(props: ScriptsProps) {
  // <Scripts> is called as a function to change its elements: its hooks (unconditional, the same
  // on every render) are this component's.
  const rendered = Scripts(props);
  if (!rendered) return null;
  const preloads: string[] = [];
  let modules = 0;
  const rewrite = (node: ReactNode): ReactNode => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!isValidElement<Props>(node)) return node;
    if (node.type === Fragment) return cloneElement(node, undefined, rewrite(node.props.children));
    if (node.type === "link" && node.props.rel === "modulepreload" && node.props.href) {
      preloads.push(node.props.href);
      return null;
    }
    if (node.type === "script" && node.props.type === "module") {
      modules++;
      return cloneElement(node as ReactElement<Props & { id?: string; async?: boolean }>, { type: inertType, id: moduleId, async: undefined });
    }
    return node;
  };
  const changed = rewrite(rendered);
  if (modules !== 1) return rendered;
  return (
    <>
      {changed}
      <script nonce={props.nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: loader(preloads) }} />
    </>
  );
}

/** The inline script that starts React Router's module script after the first paint. */
function loader(preloads: string[]): string {
  // JSON inside a script: `<` escaped so that no `</script>` can close it.
  const hrefs = JSON.stringify(preloads).replace(/</g, "\\u003c");
  // When: once the first contentful paint is reported (a 'paint' entry comes after the frame was
  // presented; on a busy machine that was a second after the main thread's paint, and a frame and
  // a task were not enough); where the browser has no paint entries, after a frame and a task; a
  // hidden page at once; after 5 s in any case (a page that never paints text still starts).
  // `started` makes it once, whichever comes first.
  return `(function(){var n=document.currentScript.nonce,started=false;function go(){if(started)return;started=true;var h=document.head;${hrefs}.forEach(function(u){var l=document.createElement("link");l.rel="modulepreload";l.href=u;h.appendChild(l)});var s=document.createElement("script");s.type="module";s.nonce=n;s.textContent=document.getElementById(${JSON.stringify(moduleId)}).textContent;h.appendChild(s)}if(document.visibilityState==="hidden"){go();return}document.addEventListener("visibilitychange",function(){if(document.visibilityState==="hidden")go()});var P=window.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0){new P(function(l,o){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();setTimeout(go,0)}}).observe({type:"paint",buffered:true});setTimeout(go,5000)}else requestAnimationFrame(function(){setTimeout(go,0)})})()`;
}
