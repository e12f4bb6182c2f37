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
 * after the first frame (a frame, then a task: the paint happens in between), adds the
 * modulepreloads and the module script with its original text and the page's nonce: from there
 * on it is React Router's own start-up. A hidden page (a background tab) gets no frame until
 * shown, so it loads at once. If <Scripts> ever writes something else than expected (a new
 * React Router), its output is used unchanged.
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
  return `(function(){var n=document.currentScript.nonce;function go(){var h=document.head;${hrefs}.forEach(function(u){var l=document.createElement("link");l.rel="modulepreload";l.href=u;h.appendChild(l)});var s=document.createElement("script");s.type="module";s.nonce=n;s.textContent=document.getElementById(${JSON.stringify(moduleId)}).textContent;h.appendChild(s)}if(document.visibilityState==="hidden")go();else requestAnimationFrame(function(){setTimeout(go,0)})})()`;
}
