import { map } from 'rxjs';
import { type HidBinding, type HidLink, type HidStatus, openHidLink } from '../../src/io/hid.js';
import { KEYBOARD_USAGE } from './boot-keyboard.js';
import type { KeypadLink, KeypadLinkState } from './driver.js';
import type { HidKeypadConfig } from './manifest.js';

function linkState(status: HidStatus): KeypadLinkState {
  switch (status.state) {
    case 'open':
      return { up: true, where: status.path };
    case 'opening':
      return { up: false, reason: `opening ${status.device}` };
    case 'closed':
    case 'missing':
      return { up: false, reason: status.reason };
  }
}

/** The HID transport as the driver's link. */
export function keypadLinkFromHid(hid: HidLink): KeypadLink {
  return {
    reports: hid.reports$,
    // Every reason reaches the driver (it says why the keypad is offline); it publishes changes only.
    state: hid.status$.pipe(map(linkState)),
    // A device that is gone shows on `status$`; an LED it did not light is no reason to stop.
    write: (report) => {
      hid.write(report).catch(() => undefined);
    },
  };
}

/** Opens the keyboard interface of the configured device; `binding` defaults to node-hid's hidraw driver. */
export function openKeypadHid(config: HidKeypadConfig, binding?: HidBinding): HidLink {
  return openHidLink({ device: config.usb, usage: KEYBOARD_USAGE, ...(binding ? { binding } : {}) });
}
