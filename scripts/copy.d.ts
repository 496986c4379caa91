/** Types of scripts/copy.js (plain CommonJS: `node scripts/copy.js` prints the copy's measures). */

export interface ProseMeasure {
	sentences: number;
	averageWords: number;
	longestWords: number;
	longest: string;
	over40: number;
}

/** Sentences, average words a sentence and the longest sentence of a Markdown document. */
export function measureProse(markdown: string): ProseMeasure;
/** The README's line count and the line of its quick start heading (undefined without one). */
export function measureReadme(markdown: string): { lines: number; quickStartLine?: number };
/** The sentences of a text, each as its words (those under `least` words, default three, left out as labels). */
export function sentences(text: string, least?: number): string[][];
/** The prose texts of a Markdown document: paragraphs, list items and table cells. */
export function texts(markdown: string): string[];
/** README.md, CONTRIBUTING.md and every docs/*.md, relative to the repository. */
export function documents(): string[];
/** A file of the repository, by its relative path. */
export function read(relative: string): string;
/** The value at a quantile (0.5: the median) of a list of numbers. */
export function median(values: number[], at: number): number;
export function errorMessages(): {
	sites: number;
	messages: Array<{ where: string; text: string; words: number }>;
	unresolved: string[];
	descriptions: Array<{ where: string; text: string; words: number; sentences: number }>;
};
