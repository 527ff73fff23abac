export declare function isBuildStale(projectRoot: string): boolean;
