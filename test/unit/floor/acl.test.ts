import { describe, expect, it } from 'vitest';
import { mosquittoAcl } from '../../../src/mqtt/mosquitto-acl.js';

describe('the Mosquitto ACL `croupier mqtt-acl` writes', () => {
  it("gives the floor service every table's public topics and commands, never private/ or devices", () => {
    const acl = mosquittoAcl('T7', 'croupier-T7', [{ username: 'floor', password: 'x', role: 'floor' }]);
    const floor = acl.split('\n\n')[1]?.trim().split('\n');
    expect(floor).toEqual([
      'user floor',
      'topic read croupier/v1/+/status',
      'topic read croupier/v1/+/state',
      'topic read croupier/v1/+/incident',
      'topic write croupier/v1/+/command/+',
    ]);
  });
});
