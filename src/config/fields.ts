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
