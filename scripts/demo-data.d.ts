/** Types of scripts/demo-data.js (plain CommonJS, shared by the demo and the e2e tier). */

/** Creates list 1, the monitored dynamic list the example workflows expect, unless the sandbox at `sandboxUrl` has it; resolves to its id. */
export function seedDemoData(sandboxUrl: string, token?: string): Promise<number>;
