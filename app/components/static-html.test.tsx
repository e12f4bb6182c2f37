import { forwardRef, useState } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { OpState } from "./op-state.tsx";
import { RowMenu } from "./row-menu.tsx";
import { staticHtml } from "./static-html.ts";

// The same HTML up to what HTML ignores: attribute order, attribute-name case, a style's last ';'.
const normal = (html: string) =>
  html.replace(/<([a-z0-9]+)((?:\s+[^\s=>/]+="[^"]*")*)(\/?)>/gi, (_m, tag: string, attrs: string, slash: string) => {
    const list = [...attrs.matchAll(/\s+([^\s=>/]+)="([^"]*)"/g)].map(([, n, v]) => {
      const name = n!.toLowerCase();
      return `${name}="${name === "style" ? v!.replace(/;$/, "") : v}"`;
    });
    return `<${tag}${list.sort().map((a) => ` ${a}`).join("")}${slash}>`;
  });

describe("staticHtml", () => {
  it("writes what React's own static renderer writes for table rows", () => {
    const row = (
      <tr data-row="con-1" aria-selected>
        <td>
          <input type="checkbox" className="checkbox" name="selected" value="con-1" form="t-select" defaultChecked aria-label={'Select "Ada" <Lovelace> & co'} />
        </td>
        <td className="whitespace-nowrap">
          <a href="/contacts?size=50&selected=con-1" className="kit-select" aria-current="true">
            Ada &amp; <b>Bob</b> {42} {null} {false} {undefined}
          </a>
        </td>
        <td>
          <time dateTime="2026-11-23T04:04:40.798Z">{"2026-11-23 04:04"}</time>
        </td>
        <td>
          <OpState value="up" />
          <OpState value={null} />
        </td>
        <td style={{ minWidth: 0, WebkitLineClamp: 2, "--x": "1" } as React.CSSProperties}>
          <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" strokeWidth="2" fill="none">
            <path d="m20 20-3.5-3.5" />
          </svg>
        </td>
        <td colSpan={2} tabIndex={-1}>
          <RowMenu
            label="Actions for Ada"
            up
            csrf="tok.sig"
            items={[
              { label: "Update Contact", href: "?dialog=update&id=con-1" },
              { label: "Disabled", href: "#", disabled: true },
              { label: "Restart", intent: "restart", fields: { id: "con-1" }, danger: true },
            ]}
          />
        </td>
      </tr>
    );
    expect(normal(staticHtml(row))).toBe(normal(renderToStaticMarkup(<table><tbody>{row}</tbody></table>).replace(/^<table><tbody>|<\/tbody><\/table>$/g, "")));
    // Attribute values are escaped.
    expect(staticHtml(row)).toContain('aria-label="Select &quot;Ada&quot; &lt;Lovelace&gt; &amp; co"');
  });

  it("renders fragments, arrays, numbers and nested function components", () => {
    const Name = ({ first, last }: { first: string; last: string }) => (
      <>
        {first} <em>{last}</em>
      </>
    );
    expect(staticHtml([<Name key="a" first="Grace" last="Hopper" />, " ", 7, <br key="b" />])).toBe("Grace <em>Hopper</em> 7<br/>");
  });

  it("refuses what cannot be static: event handlers, hooks, component objects", () => {
    expect(() => staticHtml(<button onClick={() => {}}>x</button>)).toThrow(/event handler/);
    const WithState = () => {
      useState(0);
      return <span />;
    };
    expect(() => staticHtml(<WithState />)).toThrow();
    const Ref = forwardRef<HTMLSpanElement>((_p, ref) => <span ref={ref} />);
    expect(() => staticHtml(<Ref />)).toThrow(/not a plain element/);
  });
});
