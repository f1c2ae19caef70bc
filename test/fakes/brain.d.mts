export declare const RULE: string;
export declare function kindOf(text: string): 'judge' | 'repair' | 'reflect' | 'attempt';
export declare function reply(text: string): string;
