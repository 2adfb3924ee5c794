import type { DeviceRole, DeviceStatus, Unsequenced } from '../domain/events.js';

/** A driver's report of its device's status, as every driver gives it. */
export interface DriverStatus {
  status: DeviceStatus['status'];
  detail: string;
  t: number;
}

/**
 * The `device` event a driver's status report stands for: under the device's configured id, stamped with
 * the role its kind has at the table. The table reads the role, never the id.
 */
export function deviceStatus(
  report: DriverStatus,
  device: string,
  role: DeviceRole,
): Unsequenced<DeviceStatus> {
  return { type: 'device', t: report.t, device, role, status: report.status, detail: report.detail };
}
