// HeraldAssets: the asset ledger — references per file checksum, grace period, collection.
