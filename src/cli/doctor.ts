import { diagnose, report } from '../doctor/doctor.js';
import { type DoctorSystem, hostSystem } from '../doctor/system.js';

/**
 * `croupier doctor`: checks this table's installation and says in plain words what is wrong and what to
 * do. Returns the exit code: 0 nothing blocks play, 1 something does.
 */
export async function doctor(
  { config }: { config?: string | undefined },
  system: DoctorSystem = hostSystem(),
): Promise<number> {
  const checks = await diagnose(config, system);
  process.stdout.write(report(checks));
  return checks.some((check) => check.blocking) ? 1 : 0;
}
