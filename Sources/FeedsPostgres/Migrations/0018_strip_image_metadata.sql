-- Whether uploaded photos lose their location and identifying metadata before they are stored
-- (FeedsMedia's ImageMetadata); on unless an admin turns it off.
ALTER TABLE app_settings ADD COLUMN strip_image_metadata boolean NOT NULL DEFAULT true;
