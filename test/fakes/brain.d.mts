export declare const RULE: string;
export declare const TOOL_RULE: string;
export declare function kindOf(text: string): 'judge' | 'repair' | 'reflect' | 'attempt';
export declare function callsSearch(text: string): boolean;
export declare function searchQuery(text: string): string;
export declare function reply(text: string): string;
