-- Failed sign-ins are counted per address as well as per (e-mail, address) (issue 29: one address
-- trying many e-mails is throttled; failures from elsewhere no longer lock a user out). The count
-- per address reads this index instead of the whole table, which an attacker can make large.
CREATE INDEX web_sign_in_failures_ip ON web_sign_in_failures (ip, at);
