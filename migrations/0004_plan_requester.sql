-- The person a proposal was made for (DESIGN.md "Free text", step 4): only their confirm or
-- reject word answers it; in a group, other members' messages leave it alone. NULL for plans
-- proposed before this column existed: anyone in the thread may answer those, as before.
ALTER TABLE plan ADD COLUMN requester_id TEXT;
