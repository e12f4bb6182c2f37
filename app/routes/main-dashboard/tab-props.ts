import type { DashboardDevice, DashboardRange } from "./model.ts";

/** What route.tsx hands a device tab's view (tabs 2–6): its loader part's data, the device, the range. */
export interface TabProps<D> {
  data: D;
  device: DashboardDevice;
  range: DashboardRange;
}
