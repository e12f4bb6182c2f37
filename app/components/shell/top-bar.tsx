import { useLocation } from "react-router";
import { ScreenLink } from "../query-link.tsx";
import type { ThemeChoice } from "../theme.ts";
import { Logo } from "../logo.tsx";
import { Icon } from "./icons.tsx";
import { NavMenu } from "./side-nav.tsx";
import { NotificationsMenu } from "./notifications-menu.tsx";
import { ProfileMenu } from "./profile-menu.tsx";

/** The PCAP Analyzer (reachable by URL), with the way back to the current page. */
function usePcapHref() {
  const location = useLocation();
  if (location.pathname === "/pcap-analyzer") return `/pcap-analyzer${location.search}`;
  return `/pcap-analyzer?from=${encodeURIComponent(location.pathname + location.search)}`;
}

/**
 * The top bar (spec 1 §2): the account's logo (with a 'powered by' caption) or the product's,
 * linking to /main-dashboard; PCAP Analyzer; FAQ; notifications; the profile menu.
 */
export function TopBar({
  productName,
  logo,
  accountName,
  username,
  accountId,
  showBilling,
  theme,
  hideNav = false,
  inert = false,
}: {
  theme: ThemeChoice;
  hideNav?: boolean;
  /** No JS and a dialog open by URL: the page behind it (this bar too) takes no focus. */
  inert?: boolean;
  productName: string;
  logo: string | null;
  accountName: string | null;
  username: string;
  accountId: string | null;
  showBilling: boolean;
}) {
  const pcapHref = usePcapHref();
  return (
    <header className="bg-base-100 border-base-300 sticky top-0 z-30 flex h-16 items-center gap-1 border-b px-2 max-[400px]:gap-0 sm:gap-2 sm:px-4" inert={inert}>
      {hideNav ? null : <NavMenu showBilling={showBilling} />}
      <ScreenLink to="/main-dashboard" className="flex min-w-0 items-center gap-2 rounded px-1 py-1" data-testid="home-link">
        {logo ? (
          <span className="flex min-w-0 flex-col leading-tight">
            <img src={logo} alt={`${accountName ?? "Account"} logo`} className="h-7 max-w-[9rem] object-contain object-left" />
            <span className="text-base-content/80 text-[0.7rem]">powered by {productName}</span>
          </span>
        ) : (
          <Logo productName={productName} />
        )}
      </ScreenLink>
      <div className="flex-1" />
      <ScreenLink to={pcapHref} className="btn btn-primary max-sm:btn-square" preventScrollReset>
        <Icon name="pcap" />
        <span className="max-sm:sr-only">PCAP Analyzer</span>
      </ScreenLink>
      <ScreenLink to="/support#faq" className="btn btn-ghost max-sm:btn-square">
        <Icon name="help" />
        <span className="max-sm:sr-only">FAQ</span>
      </ScreenLink>
      <NotificationsMenu />
      <ProfileMenu username={username} accountId={accountId} showBilling={showBilling} theme={theme} />
    </header>
  );
}
