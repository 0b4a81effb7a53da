export declare function migrateLocal(persistTo?: string): void;
