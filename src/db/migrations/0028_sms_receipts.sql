-- SMS delivery receipts (SMPP deliver_sm) name the id the SMSC gave one part of a message; a sent
-- message's provider_id holds its parts' ids, comma separated. This index finds the message a
-- receipt names without reading every text message ever sent.
CREATE INDEX messages_sms_provider_ids ON messages USING gin (string_to_array(provider_id, ','))
  WHERE channel = 'sms' AND provider_id IS NOT NULL;
