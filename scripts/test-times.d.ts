/** Types of scripts/test-times.js (plain CommonJS, run by scripts/test.sh at the end of a run). */

export interface Step {
	name: string;
	/** Epoch seconds. */
	start: number;
	/** Epoch seconds; undefined when the run was cut short in this step. */
	end?: number;
	/** Exit status; undefined when the run was cut short in this step. */
	status?: number;
}

/** What `jest --json` writes, as far as the table reads it. */
export interface JestResults {
	numTotalTestSuites: number;
	numTotalTests: number;
	numPassedTests: number;
	numFailedTests: number;
	numPendingTests: number;
	numTodoTests: number;
	testResults: Array<{ name: string; startTime: number; endTime: number; status: string }>;
}

/** Seconds as m:ss (h:mm:ss from an hour). */
export function clock(seconds: number): string;

/** The lines of steps.tsv that scripts/test.sh writes. */
export function parseSteps(text: string): Step[];

/** The Markdown table of a run: its steps, each jest tier's tests, the ten slowest suites. */
export function timingTable(run: {
	steps: Step[];
	tiers: Array<{ name: string; results: JestResults | undefined }>;
	root?: string;
	now?: number;
	title?: string;
}): string;

/** Reads what scripts/test.sh left in `dir`, writes the table to `out` and returns it. */
export function writeTimes(options: {
	dir: string;
	tierNames: string[];
	out: string;
	title: string;
}): string;
