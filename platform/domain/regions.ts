/*
 * The cloud regions an app service or hosting can be placed in (list-aws-regions,
 * list-azure-regions), with the coordinates of each region's data centres so platform/fleet
 * measures latency and traffic from the nearest provider PoP.
 */
import type { CloudRegion } from "../contract/app-services.ts";
import regions from "./regions.json";

export interface RegionSite extends CloudRegion {
  lat: number;
  lon: number;
}

// The tables are data: ./regions.json.
export const awsRegions: RegionSite[] = regions.aws;
export const azureRegions: RegionSite[] = regions.azure;

export const regionsOf = { aws: awsRegions, azure: azureRegions } as const;

export function regionSite(provider: string, region: string): RegionSite | undefined {
  const list = provider === "aws" ? awsRegions : provider === "azure" ? azureRegions : [];
  return list.find((r) => r.region === region);
}
