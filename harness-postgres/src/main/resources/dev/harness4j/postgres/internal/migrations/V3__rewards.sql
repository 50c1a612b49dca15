-- harness4j schema version 3: a verifier's named metrics (meta.json's verify.rewards, an object
-- of numbers) as a column, so summaries and metrics read them without parsing meta.
ALTER TABLE h4j_result ADD COLUMN rewards jsonb;
UPDATE h4j_result SET rewards = meta->'verify'->'rewards'
    WHERE jsonb_typeof(meta->'verify'->'rewards') = 'object';
