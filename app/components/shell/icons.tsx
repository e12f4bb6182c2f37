/*
 * A few line icons drawn inline (24×24, stroke = currentColor). Decorative: every use sits beside
 * a text name (visible or sr-only), so they are aria-hidden.
 *
 * Each icon's shapes are one markup string, set as the <svg>'s inner HTML: the shell draws ~26
 * icons on every page, and React walked ~70 small elements for them on each render (a third of
 * the signed-in 404 page's elements). The strings are constants, so the server's and the
 * browser's markup are identical and hydration keeps it.
 */

export type IconName =
  | "dashboards"
  | "router"
  | "ethernet"
  | "gauge"
  | "apps"
  | "endpoint"
  | "server"
  | "node"
  | "agent"
  | "entities"
  | "iam"
  | "contacts"
  | "operations"
  | "history"
  | "support"
  | "billing"
  | "bell"
  | "help"
  | "pcap"
  | "menu"
  | "chevrons-left"
  | "copy"
  | "settings"
  | "user"
  | "logout"
  | "logo";

const shapes: Record<IconName, string> = {
  dashboards:
    '<rect x="3" y="3" width="7" height="9" rx="1"></rect><rect x="14" y="3" width="7" height="5" rx="1"></rect><rect x="14" y="12" width="7" height="9" rx="1"></rect><rect x="3" y="16" width="7" height="5" rx="1"></rect>',
  router:
    '<rect x="3" y="13" width="18" height="7" rx="2"></rect><path d="M7 16.5h.01M11 16.5h.01M12 13V8M8.5 6.5a5 5 0 0 1 7 0M6 4a8.5 8.5 0 0 1 12 0"></path>',
  ethernet:
    '<rect x="4" y="4" width="16" height="12" rx="1"></rect><path d="M8 16v4h8v-4M8 8v3M11 8v3M14 8v3M17 8v3"></path>',
  gauge:
    '<path d="M4 18a8 8 0 1 1 16 0"></path><path d="M12 18l4-6"></path>',
  apps:
    '<rect x="3" y="3" width="7" height="7" rx="1.5"></rect><rect x="14" y="3" width="7" height="7" rx="1.5"></rect><rect x="3" y="14" width="7" height="7" rx="1.5"></rect><path d="M17.5 14v7M14 17.5h7"></path>',
  endpoint:
    '<rect x="3" y="4" width="18" height="12" rx="1.5"></rect><path d="M8 20h8M12 16v4"></path>',
  server:
    '<rect x="3" y="3" width="18" height="7" rx="1.5"></rect><rect x="3" y="14" width="18" height="7" rx="1.5"></rect><path d="M7 6.5h.01M7 17.5h.01"></path>',
  node:
    '<circle cx="12" cy="12" r="3"></circle><circle cx="5" cy="5" r="2"></circle><circle cx="19" cy="5" r="2"></circle><circle cx="12" cy="21" r="1.5"></circle><path d="M6.5 6.5l3.3 3.3M17.5 6.5l-3.3 3.3M12 15v4.5"></path>',
  agent:
    '<circle cx="12" cy="8" r="4"></circle><path d="M4 21a8 8 0 0 1 16 0"></path>',
  entities:
    '<rect x="9" y="3" width="6" height="5" rx="1"></rect><rect x="3" y="16" width="6" height="5" rx="1"></rect><rect x="15" y="16" width="6" height="5" rx="1"></rect><path d="M12 8v4M6 16v-4h12v4"></path>',
  iam:
    '<path d="M12 3l8 3v6c0 4.5-3.4 8-8 9-4.6-1-8-4.5-8-9V6z"></path><circle cx="12" cy="10" r="2.5"></circle><path d="M8 16.5a4.5 4.5 0 0 1 8 0"></path>',
  contacts:
    '<rect x="4" y="3" width="16" height="18" rx="2"></rect><circle cx="12" cy="10" r="3"></circle><path d="M7.5 17a5 5 0 0 1 9 0"></path>',
  operations:
    '<circle cx="12" cy="12" r="3"></circle><path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1"></path>',
  history:
    '<path d="M3 12a9 9 0 1 0 3-6.7L3 8"></path><path d="M3 3v5h5M12 7v5l3 2"></path>',
  support:
    '<circle cx="12" cy="12" r="9"></circle><circle cx="12" cy="12" r="4"></circle><path d="M5.6 5.6l3.6 3.6M14.8 14.8l3.6 3.6M18.4 5.6l-3.6 3.6M9.2 14.8l-3.6 3.6"></path>',
  billing:
    '<rect x="2" y="5" width="20" height="14" rx="2"></rect><path d="M2 10h20M6 15h4"></path>',
  bell:
    '<path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9"></path><path d="M10.3 21a1.9 1.9 0 0 0 3.4 0"></path>',
  help:
    '<circle cx="12" cy="12" r="9"></circle><path d="M9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3M12 17h.01"></path>',
  pcap:
    '<path d="M3 12h4l3-8 4 16 3-8h4"></path>',
  menu:
    '<path d="M4 6h16M4 12h16M4 18h16"></path>',
  "chevrons-left":
    '<path d="M11 17l-5-5 5-5M18 17l-5-5 5-5"></path>',
  copy:
    '<rect x="9" y="9" width="12" height="12" rx="2"></rect><path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1"></path>',
  settings:
    '<path d="M4 7h10M18 7h2M4 17h2M10 17h10"></path><circle cx="16" cy="7" r="2"></circle><circle cx="8" cy="17" r="2"></circle>',
  user:
    '<circle cx="12" cy="8" r="4"></circle><path d="M4 21a8 8 0 0 1 16 0"></path>',
  logout:
    '<path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4"></path><path d="M16 17l5-5-5-5M21 12H9"></path>',
  logo:
    '<circle cx="6" cy="12" r="2.5"></circle><circle cx="18" cy="6" r="2.5"></circle><circle cx="18" cy="18" r="2.5"></circle><path d="M8.3 11l7.4-3.8M8.3 13l7.4 3.8"></path>',
};

export function Icon({ name, className = "size-5" }: { name: IconName; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={`shrink-0 ${className}`}
      aria-hidden="true"
      focusable="false"
      dangerouslySetInnerHTML={{ __html: shapes[name] }}
    />
  );
}
