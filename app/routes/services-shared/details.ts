import type { DetailsItem } from "../../components/details-table.tsx";

/* Details-tab pieces App Services and Endpoints share. */

/** The Contacts section: the business (primary) and technical (secondary) contacts. */
export const contactItems = (s: { primary_contact?: string | null; secondary_contact?: string | null }): DetailsItem[] => [
  { label: "Business Contact", value: s.primary_contact ?? "" },
  { label: "Technical Contact", value: s.secondary_contact ?? "" },
];
