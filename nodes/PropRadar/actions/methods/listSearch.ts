import { listsOfType } from '../../shared/listSearch';

export { searchLists } from '../../shared/listSearch';
export const searchStaticLists = listsOfType('static');
export const searchImportLists = listsOfType('import');
