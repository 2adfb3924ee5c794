/*
 * The config's refusals, from the leaf module every boundary shares: the device manifests, which the
 * config reads, import `../problems.js` itself (importing the config folder would loop back to them).
 */
export { ConfigError, cut, describeIssues, parseSection } from '../problems.js';
