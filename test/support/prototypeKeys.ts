/** Keys every JavaScript object inherits, given where a client gives a name. */
export const PROTOTYPE_KEYS = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];
