/** The tests' name for the one polling helper, scripts/until.js (the demo and scripts/n8n-host.js use it too). */
export { until } from '../../scripts/until';
