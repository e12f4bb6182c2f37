import { DetailsMenu } from "./details-menu.tsx";
import { Icon } from "./icons.tsx";

/** The notifications menu: it always says 'No notifications.' (spec 1 §2, Top bar). */
export function NotificationsMenu() {
  return (
    <DetailsMenu
      testId="notifications-menu"
      summaryClassName="btn btn-ghost btn-square"
      summary={
        <>
          <Icon name="bell" />
          <span className="sr-only">Notifications</span>
        </>
      }
    >
      <div className="dropdown-content bg-base-100 rounded-box border-base-300 z-40 mt-1 w-64 border p-4 shadow-lg">
        <h2 className="mb-1 font-semibold">Notifications</h2>
        <p className="text-base-content/80 text-sm">No notifications.</p>
      </div>
    </DetailsMenu>
  );
}
