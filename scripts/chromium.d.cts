export declare const CHROMIUM_ARGS: string[]
export declare function findChromium(): string | null
export declare const HOW_TO_GET_CHROMIUM: string
