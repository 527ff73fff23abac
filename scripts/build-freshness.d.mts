export declare const BUILD_INPUTS: readonly string[];
export declare function isBuildStale(projectRoot: string): boolean;
