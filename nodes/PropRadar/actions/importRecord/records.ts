import { IMPORT_RECORD_FIELDS } from '../../shared/vocabulary';

// The API takes every record field as an optional string and leaves matching to the service, so a
// record is sent as the user has it: only what has one reading is normalised, and each change noted.
export type ImportRecord = Record<string, string>;

// Each state's or territory's code and name; names are matched in lower case.
const STATE_CODES: Record<string, string> = Object.fromEntries(
	`
	AL Alabama, AK Alaska, AZ Arizona, AR Arkansas, CA California, CO Colorado,
	CT Connecticut, DE Delaware, DC District of Columbia, FL Florida, GA Georgia, HI Hawaii,
	ID Idaho, IL Illinois, IN Indiana, IA Iowa, KS Kansas, KY Kentucky, LA Louisiana,
	ME Maine, MD Maryland, MA Massachusetts, MI Michigan, MN Minnesota, MS Mississippi,
	MO Missouri, MT Montana, NE Nebraska, NV Nevada, NH New Hampshire, NJ New Jersey,
	NM New Mexico, NY New York, NC North Carolina, ND North Dakota, OH Ohio, OK Oklahoma,
	OR Oregon, PA Pennsylvania, RI Rhode Island, SC South Carolina, SD South Dakota,
	TN Tennessee, TX Texas, UT Utah, VT Vermont, VA Virginia, WA Washington,
	WV West Virginia, WI Wisconsin, WY Wyoming, PR Puerto Rico, GU Guam,
	VI U.S. Virgin Islands, VI US Virgin Islands, VI Virgin Islands, AS American Samoa,
	MP Northern Mariana Islands
`
		.split(',')
		.map((entry) => {
			const [code, ...name] = entry.trim().split(' ');
			return [name.join(' ').toLowerCase(), code];
		}),
);
const CODES = new Set(Object.values(STATE_CODES));

const FIVE_DIGITS = /^\d{5}$/;

function normaliseZip(value: string): { value: string; note: string } {
	const plusFour = /^(\d{4,5})[-\s]?\d{4}$/.exec(value);
	const five = /^\d{4}$/.test(value) ? value : plusFour?.[1];
	if (five === undefined)
		return { value, note: `ZipFive "${value}" is not five digits; sent as given` };
	const padded = five.padStart(5, '0');
	const steps = [
		plusFour ? 'ZIP+4 cut to its five digits' : '',
		five.length === 4 ? 'its lost leading zero put back' : '',
	]
		.filter(Boolean)
		.join(', ');
	return { value: padded, note: `ZipFive "${value}" sent as "${padded}" (${steps})` };
}

function normaliseState(value: string): { value: string; note: string } {
	const code = CODES.has(value.toUpperCase())
		? value.toUpperCase()
		: STATE_CODES[value.toLowerCase().replace(/\s+/g, ' ')];
	if (code) return { value: code, note: `State "${value}" sent as "${code}"` };
	return { value, note: `State "${value}" is not a US state name or code; sent as given` };
}

const byName = new Map<string, string>(IMPORT_RECORD_FIELDS.map((field) => [field, field]));
const byLowerName = new Map<string, string>(
	IMPORT_RECORD_FIELDS.map((field) => [field.toLowerCase(), field]),
);

// Run for thousands of items in a busy n8n: only the record is built, notes go to the caller's array,
// and a value that needs no change allocates nothing (docs/design.md).
export function readRecord(values: Record<string, unknown>, notes: string[]): ImportRecord {
	const record: ImportRecord = {};
	for (const name in values) {
		if (!Object.hasOwn(values, name)) continue;
		const field = byName.get(name) ?? byLowerName.get(name.toLowerCase());
		const raw = values[name];
		if (!field || raw === undefined || raw === null) continue;
		if (typeof raw === 'object' || typeof raw === 'function') {
			notes.push(
				`${field} left out: it is ${Array.isArray(raw) ? 'a list' : 'an object'}, not text or a number`,
			);
			continue;
		}
		const text = (typeof raw === 'string' ? raw : String(raw)).trim();
		if (text === '') continue;
		let value = text;
		let note: string | undefined;
		if (field === 'ZipFive') {
			if (!FIVE_DIGITS.test(text)) ({ value, note } = normaliseZip(text));
		} else if (field === 'State') {
			if (!CODES.has(text)) ({ value, note } = normaliseState(text));
		} else if (field === 'Email' && !/^[^@\s]+@[^@\s]+$/.test(text))
			note = `Email "${text}" is not an e-mail address; sent as given`;
		record[field] = value;
		if (note) notes.push(note);
	}
	return record;
}

export function hasField(record: ImportRecord): boolean {
	for (const _ in record) return true;
	return false;
}

export const NO_FIELDS = `Give at least one of ${IMPORT_RECORD_FIELDS.join(', ')}, by input fields of those names or with Map Each Field.`;
