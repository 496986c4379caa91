// IDs beyond a JavaScript number's exact range (up to 2^63 - 1) are kept as digits; keys have no fixed shape.

export const MAX_NUMBERED_ID = '9223372036854775807';
const MAX_KEY_LENGTH = 100;

const KEY_RULE = `without whitespace, control characters or / \\ ? # %, at most ${MAX_KEY_LENGTH} characters`;
export const PROP_ID_RULE = `a PropID is text such as P000123, ${KEY_RULE}`;
export const PERSON_KEY_RULE = `a PersonKey is text such as K000123A, ${KEY_RULE}`;

export type NumberedId = number | string;

// The problem is a sentence fragment to follow `"value" `.
export function parseNumberedId(
	value: unknown,
	what = 'an ID',
): { id: NumberedId } | { problem: string } {
	const notOne = `is not ${what}; ${what} is a whole number from 1 to ${MAX_NUMBERED_ID}`;
	if (typeof value === 'number') {
		if (Number.isSafeInteger(value) && value > 0) return { id: value };
		if (Number.isInteger(value) && value > Number.MAX_SAFE_INTEGER) {
			return {
				problem: `is beyond ${Number.MAX_SAFE_INTEGER}, where a number has already lost digits; give ${what} as text (for example from an expression that yields a string)`,
			};
		}
		return { problem: notOne };
	}
	if (typeof value !== 'string') return { problem: notOne };
	const digits = value.trim().replace(/^0+(?=\d)/, '');
	const inRange =
		/^[1-9]\d*$/.test(digits) &&
		(digits.length < MAX_NUMBERED_ID.length ||
			(digits.length === MAX_NUMBERED_ID.length && digits <= MAX_NUMBERED_ID));
	if (!inRange) return { problem: notOne };
	const number = Number(digits);
	return { id: Number.isSafeInteger(number) ? number : digits };
}

export function keyProblem(text: string): string | undefined {
	if (text.length === 0) return 'is empty';
	if ([...text].length > MAX_KEY_LENGTH) return `is longer than ${MAX_KEY_LENGTH} characters`;
	if (/\p{Cc}/u.test(text)) return 'contains a control character';
	if (/\s/.test(text)) return 'contains whitespace';
	if (/[/\\?#%]/.test(text)) return 'contains one of / \\ ? # %';
	if (/^\.+$/.test(text)) return 'is only dots';
	return undefined;
}

// Never throws, whatever an expression yielded: `String()` does on an object whose own `toString` is not a function.
export function shownValue(value: unknown): string {
	let text: string;
	try {
		text = typeof value === 'string' ? value : (JSON.stringify(value) ?? typeof value);
	} catch {
		text = typeof value;
	}
	return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

// Comma-separated text, or a list (what `{{ $json.ids }}` gives): its entries, not yet checked.
export function listEntries(value: unknown): unknown[] {
	if (value === undefined || value === null) return [];
	return Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
}

export function keyText(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}
