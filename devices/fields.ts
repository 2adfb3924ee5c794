import { z } from 'zod';

/** Config fields every device kind shares. */

export const usbId = z
  .string()
  .regex(/^[0-9a-fA-F]{4}$/, 'a USB id is 4 hex digits, as lsusb prints it (e.g. "2341")')
  .transform((id) => id.toLowerCase());

/** A USB device by its ids; the serial number tells identical devices apart. */
export const usbDevice = z.strictObject({
  vendorId: usbId,
  productId: usbId,
  serialNumber: z.string().min(1).optional(),
});

/**
 * The serial number the device must give in its HELLO. A device saying another (a rogue reader on the
 * port, injecting fake reads) is refused: nothing it sends reaches the table.
 */
export const deviceSerial = z.string().min(1).max(64).optional();

/**
 * Where a serial device is: on the Pi (`serial`: a path, or USB ids found at each open), or on another
 * computer running `croupier bridge` (`bridge`: its bytes on the table's broker under `device/<id>/`).
 */
export function deviceLink(defaults: { path: string; baudRate: number }) {
  const serial = z
    .strictObject({
      type: z.literal('serial'),
      /** A fixed device path; otherwise the transport finds the port by its USB ids. */
      path: z.string().min(1).optional(),
      usb: usbDevice.optional(),
      baudRate: z.number().int().positive().default(defaults.baudRate),
    })
    .refine((link) => link.path !== undefined || link.usb !== undefined, {
      message: `give the port as path (e.g. ${defaults.path}) or usb { vendorId, productId }`,
    });
  const bridged = z.strictObject({ type: z.literal('bridge') });
  return z
    .preprocess(
      // `type` may be left out for a local port, the common case.
      (link) => (link && typeof link === 'object' && !('type' in link) ? { ...link, type: 'serial' } : link),
      z.discriminatedUnion('type', [serial, bridged], { error: 'type is serial (the default) or bridge' }),
    )
    .default({ type: 'serial', ...defaults });
}
