/*
 * The cloud regions an app service or hosting can be placed in (list-aws-regions,
 * list-azure-regions), with the coordinates of each region's data centres so platform/fleet
 * measures latency and traffic from the nearest provider PoP.
 */
import type { CloudRegion } from "../contract/app-services.ts";

export interface RegionSite extends CloudRegion {
  lat: number;
  lon: number;
}

export const awsRegions: RegionSite[] = [
  { region: "us-east-1", name: "US East (N. Virginia)", lat: 38.9, lon: -77.4 },
  { region: "us-east-2", name: "US East (Ohio)", lat: 40.0, lon: -83.0 },
  { region: "us-west-1", name: "US West (N. California)", lat: 37.4, lon: -121.9 },
  { region: "us-west-2", name: "US West (Oregon)", lat: 45.8, lon: -119.7 },
  { region: "ca-central-1", name: "Canada (Central)", lat: 45.5, lon: -73.6 },
  { region: "sa-east-1", name: "South America (São Paulo)", lat: -23.5, lon: -46.6 },
  { region: "eu-west-1", name: "Europe (Ireland)", lat: 53.3, lon: -6.3 },
  { region: "eu-west-2", name: "Europe (London)", lat: 51.5, lon: -0.1 },
  { region: "eu-west-3", name: "Europe (Paris)", lat: 48.9, lon: 2.4 },
  { region: "eu-central-1", name: "Europe (Frankfurt)", lat: 50.1, lon: 8.7 },
  { region: "eu-north-1", name: "Europe (Stockholm)", lat: 59.3, lon: 18.1 },
  { region: "ap-south-1", name: "Asia Pacific (Mumbai)", lat: 19.1, lon: 72.9 },
  { region: "ap-southeast-1", name: "Asia Pacific (Singapore)", lat: 1.3, lon: 103.8 },
  { region: "ap-southeast-2", name: "Asia Pacific (Sydney)", lat: -33.9, lon: 151.2 },
  { region: "ap-northeast-1", name: "Asia Pacific (Tokyo)", lat: 35.7, lon: 139.7 },
  { region: "ap-northeast-2", name: "Asia Pacific (Seoul)", lat: 37.6, lon: 127.0 },
];

export const azureRegions: RegionSite[] = [
  { region: "eastus", name: "East US", lat: 37.4, lon: -79.4 },
  { region: "eastus2", name: "East US 2", lat: 36.7, lon: -78.4 },
  { region: "centralus", name: "Central US", lat: 41.6, lon: -93.6 },
  { region: "westus2", name: "West US 2", lat: 47.2, lon: -119.9 },
  { region: "westus3", name: "West US 3", lat: 33.4, lon: -112.1 },
  { region: "canadacentral", name: "Canada Central", lat: 43.7, lon: -79.4 },
  { region: "brazilsouth", name: "Brazil South", lat: -23.6, lon: -46.6 },
  { region: "northeurope", name: "North Europe", lat: 53.3, lon: -6.3 },
  { region: "westeurope", name: "West Europe", lat: 52.4, lon: 4.9 },
  { region: "uksouth", name: "UK South", lat: 50.9, lon: -0.8 },
  { region: "francecentral", name: "France Central", lat: 46.3, lon: 2.4 },
  { region: "germanywestcentral", name: "Germany West Central", lat: 50.1, lon: 8.7 },
  { region: "swedencentral", name: "Sweden Central", lat: 60.7, lon: 17.1 },
  { region: "centralindia", name: "Central India", lat: 18.6, lon: 73.9 },
  { region: "southeastasia", name: "Southeast Asia", lat: 1.3, lon: 103.8 },
  { region: "australiaeast", name: "Australia East", lat: -33.9, lon: 151.2 },
  { region: "japaneast", name: "Japan East", lat: 35.7, lon: 139.8 },
];

export const regionsOf = { aws: awsRegions, azure: azureRegions } as const;

export function regionSite(provider: string, region: string): RegionSite | undefined {
  const list = provider === "aws" ? awsRegions : provider === "azure" ? azureRegions : [];
  return list.find((r) => r.region === region);
}
